/**
 * An English–French glossary of the words business documents are made of (contracts, invoices, policies,
 * manuals, minutes, tables), so that a question or claim in one language finds a document in the other.
 * Words are folded (lower case, no accents); each English word lists its usual French renderings and the
 * reverse is derived. General vocabulary only: names, products and figures are never translated.
 */
const PAIRS: Record<string, string> = {
  invoice: 'facture', invoices: 'factures', amount: 'montant', total: 'total', price: 'prix', cost: 'cout', costs: 'couts',
  fee: 'frais honoraires', fees: 'frais honoraires', payment: 'paiement reglement versement', pay: 'payer regler verser', paid: 'paye regle verse',
  due: 'echeance exigible du', deadline: 'delai echeance', date: 'date', tax: 'taxe impot', vat: 'tva', discount: 'remise rabais',
  penalty: 'penalite', penalties: 'penalites', late: 'retard', interest: 'interet interets', rate: 'taux tarif', deposit: 'depot caution acompte',
  rent: 'loyer', lease: 'bail location', tenant: 'locataire preneur', landlord: 'bailleur proprietaire', contract: 'contrat', agreement: 'accord contrat convention',
  clause: 'clause', term: 'duree terme', terms: 'conditions modalites', termination: 'resiliation', terminate: 'resilier', notice: 'preavis',
  renewal: 'renouvellement', renew: 'renouveler', party: 'partie', parties: 'parties', supplier: 'fournisseur', customer: 'client', client: 'client',
  buyer: 'acheteur', seller: 'vendeur', signed: 'signe', signature: 'signature', liability: 'responsabilite', insurance: 'assurance',
  warranty: 'garantie', guarantee: 'garantie', delivery: 'livraison', deliver: 'livrer', shipping: 'expedition livraison', order: 'commande',
  quantity: 'quantite', unit: 'unite', units: 'unites', item: 'article', items: 'articles', line: 'ligne', product: 'produit', service: 'service',
  employee: 'salarie employe', employees: 'salaries employes', staff: 'personnel', manager: 'responsable directeur', director: 'directeur',
  board: 'conseil', meeting: 'reunion seance', minutes: 'proces verbal compte rendu', vote: 'vote', voted: 'vote', decision: 'decision',
  approved: 'approuve adopte', approve: 'approuver', rejected: 'rejete refuse', budget: 'budget', revenue: 'chiffre affaires revenus',
  profit: 'benefice', loss: 'perte', year: 'annee an', years: 'annees ans', month: 'mois', months: 'mois', week: 'semaine', weeks: 'semaines',
  day: 'jour', days: 'jours', hour: 'heure', hours: 'heures', minute: 'minute', working: 'ouvres ouvrables', business: 'ouvres ouvrables',
  policy: 'politique regle reglement', rule: 'regle', rules: 'regles', leave: 'conge conges', holiday: 'conge vacances', holidays: 'conges vacances',
  sick: 'maladie', remote: 'distance teletravail', travel: 'deplacement voyage', expense: 'depense frais', expenses: 'depenses frais',
  reimbursement: 'remboursement', refund: 'remboursement', allowance: 'indemnite allocation', salary: 'salaire remuneration', bonus: 'prime',
  training: 'formation', security: 'securite', safety: 'securite', password: 'mot passe', access: 'acces', data: 'donnees', backup: 'sauvegarde',
  retention: 'conservation', stored: 'stocke conserve heberge', storage: 'stockage', hosted: 'heberge', server: 'serveur', device: 'appareil',
  manual: 'manuel notice', maintenance: 'maintenance entretien', repair: 'reparation', battery: 'batterie', charge: 'charge recharge', charging: 'recharge',
  temperature: 'temperature', weight: 'poids', size: 'taille dimension', capacity: 'capacite', speed: 'vitesse', power: 'puissance', warning: 'avertissement',
  install: 'installer', installation: 'installation', replace: 'remplacer', replacement: 'remplacement', clean: 'nettoyer', cleaning: 'nettoyage',
  report: 'rapport', table: 'tableau', annual: 'annuel', monthly: 'mensuel', quarterly: 'trimestriel', weekly: 'hebdomadaire', daily: 'quotidien journalier',
  maximum: 'maximum plafond', minimum: 'minimum', limit: 'limite plafond', cap: 'plafond', threshold: 'seuil', percentage: 'pourcentage',
  increase: 'augmentation hausse', decrease: 'baisse diminution', start: 'debut', end: 'fin', period: 'periode', deadline_: 'date limite',
  office: 'bureau', building: 'batiment immeuble', address: 'adresse', city: 'ville', country: 'pays', room: 'salle', floor: 'etage', site: 'site',
  company: 'societe entreprise', firm: 'cabinet entreprise', department: 'service departement', team: 'equipe', project: 'projet', owner: 'proprietaire responsable',
  responsible: 'responsable', approval: 'approbation validation', request: 'demande', requests: 'demandes', complaint: 'reclamation plainte',
  who: 'qui', when: 'quand', where: 'ou', how: 'comment', much: 'combien', many: 'combien', long: 'longtemps duree',
  must: 'doit doivent', allowed: 'autorise permis', forbidden: 'interdit', required: 'obligatoire requis', optional: 'facultatif optionnel',
  first: 'premier premiere', last: 'dernier derniere', new: 'nouveau nouvelle', old: 'ancien', next: 'prochain', previous: 'precedent',
  issued: 'emise emis', issue: 'emission', account: 'compte', bank: 'banque', transfer: 'virement', card: 'carte', cash: 'especes',
  members: 'membres', member: 'membre', chair: 'president', president: 'president', secretary: 'secretaire', attendees: 'presents participants',
  plan: 'plan', schedule: 'calendrier planning', review: 'revue examen', audit: 'audit', risk: 'risque', risks: 'risques',
};

const EN_FR = new Map<string, string[]>();
const FR_EN = new Map<string, string[]>();
for (const [en, fr] of Object.entries(PAIRS)) {
  const word = en.replace(/_$/, '');
  for (const f of fr.split(' ')) {
    EN_FR.set(word, [...(EN_FR.get(word) ?? []), f]);
    FR_EN.set(f, [...(FR_EN.get(f) ?? []), word]);
  }
}

/** Abbreviations of documents and the words they stand for, in both directions (same language). */
const SHORT: Record<string, string> = {
  incl: 'including included inclusive', excl: 'excluding excluded exclusive', qty: 'quantity', approx: 'approximately', ref: 'reference',
  no: 'number', nr: 'number', tel: 'telephone phone', dept: 'department', mgr: 'manager', hr: 'hour', hrs: 'hours', min: 'minimum minute',
  max: 'maximum', ht: 'hors', ttc: 'toutes', tva: 'vat', pc: 'computer', sqm: 'square', wk: 'week', yr: 'year', mo: 'month',
};
const SHORT_BOTH = new Map<string, string[]>();
for (const [a, long] of Object.entries(SHORT)) {
  for (const l of long.split(' ')) {
    SHORT_BOTH.set(a, [...(SHORT_BOTH.get(a) ?? []), l]);
    SHORT_BOTH.set(l, [...(SHORT_BOTH.get(l) ?? []), a]);
  }
}

/**
 * The renderings of a folded word in the other language (English → French and French → English), and the
 * abbreviation it stands for or that stands for it (`incl` ↔ `including`).
 */
export function translationsOf(folded: string): string[] {
  return [...new Set([...(EN_FR.get(folded) ?? []), ...(FR_EN.get(folded) ?? []), ...(SHORT_BOTH.get(folded) ?? [])])].filter((w) => w !== folded);
}
