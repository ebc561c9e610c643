/**
 * An English–French glossary of the words business documents are made of (contracts, invoices, policies,
 * manuals, minutes, tables), so that a question or claim in one language finds a document in the other.
 * Words are folded (lower case, no accents); each English word lists its usual French renderings and the
 * reverse is derived. General vocabulary only: names, products and figures are never translated.
 */
import { createRequire } from 'node:module';

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

/**
 * Seventh round of issue 26: the words of the documents' own domains, which the first table left out, so a
 * question in one language covers a passage in the other (property and co-ownership, employment, insurance,
 * quotes and invoices, freight, construction, service levels, energy bills, franchises and associations),
 * and the calendar's words. Still general vocabulary: no name, product or figure.
 */
const DOMAINS: Record<string, string> = {
  // property, co-ownership, building services
  lift: 'ascenseur', lifts: 'ascenseurs', elevator: 'ascenseur', residence: 'residence', owners: 'coproprietaires proprietaires',
  assembly: 'assemblee', general: 'generale general', chaired: 'preside presidee president', chairman: 'president', agent: 'syndic mandataire',
  works: 'travaux', roof: 'toiture toit', roofing: 'toiture couverture', facade: 'facade', renovation: 'renovation ravalement', fund: 'fonds',
  contribution: 'cotisation participation', parking: 'stationnement parking', vehicle: 'vehicule', electric: 'electrique', resolution: 'resolution',
  majority: 'majorite', technician: 'technicien', arrive: 'arriver arrivee', arrival: 'arrivee', trapped: 'bloque bloquee', stuck: 'bloque bloquee',
  breakdown: 'panne', visit: 'visite', inspection: 'visite controle reception', acceptance: 'reception', snags: 'reserves', reservations: 'reserves',
  contractor: 'prestataire entreprise titulaire', provider: 'prestataire fournisseur', servicing: 'entretien', logbook: 'carnet',
  // employment
  intern: 'stagiaire', internship: 'stage', trainee: 'stagiaire apprenti', tutor: 'tuteur', supervisor: 'tuteur encadrant responsable',
  core: 'fixes', present: 'present presents', presence: 'presence', suspension: 'suspension mise', disciplinary: 'disciplinaire', sanction: 'sanction',
  dismissal: 'licenciement', paternity: 'paternite', maternity: 'maternite', parental: 'parental parentale', full: 'plein entier complet',
  wage: 'salaire', stipend: 'gratification', hourly: 'horaire', meal: 'repas', voucher: 'titre ticket cheque', vouchers: 'titres tickets cheques',
  face: 'faciale', value: 'valeur', employer: 'employeur', telework: 'teletravail', homeworking: 'teletravail', smoking: 'fumer tabac',
  absence: 'absence', certificate: 'certificat attestation justificatif', proof: 'justificatif preuve', harassment: 'harcelement',
  notify: 'signaler notifier informer', breach: 'violation manquement', personal: 'personnelles personnel', processor: 'traitant',
  subcontractor: 'traitant', probation: 'essai', trial: 'essai', overtime: 'supplementaires', night: 'nuit', lunch: 'dejeuner',
  // quotes, invoices, orders
  quote: 'devis', quotation: 'devis', estimate: 'devis estimation', valid: 'valable validite', validity: 'validite', joinery: 'menuiserie', carpentry: 'menuiserie',
  window: 'fenetre', windows: 'fenetres', door: 'porte', advance: 'acompte avance', balance: 'solde', remaining: 'restant reste solde', outstanding: 'restant reste',
  owed: 'du restant reste', bill: 'facture', billed: 'facture', transport: 'transport', carriage: 'transport port', seat: 'siege licence place', seats: 'sieges licences places',
  licence: 'licence', license: 'licence', subscription: 'abonnement', user: 'utilisateur', users: 'utilisateurs', ordered: 'commande commandes',
  currency: 'devise monnaie', currencies: 'devises', container: 'conteneur', foot: 'pied pieds', feet: 'pieds', freight: 'fret', ocean: 'maritime',
  sea: 'maritime mer', handling: 'manutention traitement', customs: 'douane', stationery: 'papeterie fournitures', supplies: 'fournitures',
  framework: 'cadre', caterer: 'traiteur', catering: 'traiteur restauration', guests: 'convives invites', guest: 'convive invite', event: 'evenement prestation',
  reference: 'reference', excluding: 'hors ht', including: 'compris inclus ttc', included: 'compris inclus', net: 'net', gross: 'brut',
  // franchises, associations, grants
  franchise: 'franchise', franchisee: 'franchise', franchisor: 'franchiseur', royalty: 'redevance', royalties: 'redevances', turnover: 'chiffre',
  entry: 'entree', grant: 'subvention', subsidy: 'subvention', town: 'commune ville mairie', municipality: 'commune mairie', membership: 'adhesion cotisation',
  adult: 'adulte', adults: 'adultes', child: 'enfant', children: 'enfants', sports: 'sportif sportive', surplus: 'excedent', deficit: 'deficit',
  treasurer: 'tresorier tresoriere', finances: 'finances', association: 'association',
  // energy, equipment, manuals
  solar: 'solaire photovoltaique', panel: 'panneau', panels: 'panneaux', inverter: 'onduleur', output: 'production rendement', yield: 'rendement production',
  electricity: 'electricite', gas: 'gaz', energy: 'energie', meter: 'compteur', reading: 'releve index', consumption: 'consommation',
  truck: 'chariot camion', forklift: 'chariot', rated: 'nominale nominal', load: 'charge', height: 'hauteur', lifting: 'levage', width: 'largeur',
  length: 'longueur duree', noise: 'bruit', level: 'niveau', filter: 'filtre', cycle: 'cycle', cycles: 'cycles',
  // veterinary and care
  consultation: 'consultation', clinic: 'clinique cabinet', veterinary: 'veterinaire', sterilisation: 'sterilisation', neutering: 'sterilisation castration',
  cat: 'chat chatte', dog: 'chien chienne', vaccination: 'vaccination', patient: 'patient',
  // insurance
  insurer: 'assureur', excess: 'franchise', deductible: 'franchise', premium: 'prime cotisation', cover: 'garantie couverture', coverage: 'garantie couverture',
  damage: 'dommage degat degats sinistre', water: 'eau eaux', flood: 'inondation', fire: 'incendie', theft: 'vol', claim: 'sinistre reclamation',
  contents: 'contenu', decennial: 'decennale', insured: 'assure assuree',
  // service levels, software, recruitment
  availability: 'disponibilite', uptime: 'disponibilite', broadband: 'debit', incident: 'incident', incidents: 'incidents', blocking: 'bloquant bloquants',
  critical: 'critique bloquant', response: 'reponse intervention', fix: 'correction resolution', software: 'logiciel', release: 'version', version: 'version',
  support: 'support assistance', placement: 'placement', recruitment: 'recrutement', permanent: 'permanent', candidate: 'candidat', professional: 'professionnel',
  // construction
  concrete: 'beton', slab: 'dalle', poured: 'coule coulage', pouring: 'coulage', delay: 'retard', delays: 'retards', shell: 'oeuvre', construction: 'construction chantier',
  worksite: 'chantier', housing: 'logement', retention: 'retenue', bond: 'caution garantie', milestone: 'jalon etape',
  // meetings, projects, events
  outing: 'sortie', summer: 'ete', winter: 'hiver', trip: 'sortie voyage', seminar: 'seminaire', launch: 'lancement', postponed: 'reporte repousse',
  commander: 'commandant responsable', led: 'dirige pilote', lead: 'responsable pilote', delayed: 'retarde reporte', certification: 'certification', agenda: 'ordre', attendance: 'presence', quorum: 'quorum', mandate: 'mandat',
  // terms of a contract
  expiry: 'echeance expiration', automatic: 'automatique tacite', automatically: 'automatiquement tacitement', renewed: 'renouvele reconduit',
  tacit: 'tacite', cancel: 'annuler resilier', cancellation: 'annulation resiliation', compensation: 'indemnisation indemnite dedommagement',
  credit: 'avoir credit', rebate: 'remise ristourne', reduction: 'reduction remise', loyalty: 'fidelite', calendar: 'calendaire', duration: 'duree',
  within: 'sous', notice_: 'avis', written: 'ecrit ecrite', letter: 'lettre courrier', registered: 'recommandee',
  // the calendar (numbers are read as figures elsewhere: answer-type.ts)
  january: 'janvier', february: 'fevrier', march: 'mars', april: 'avril', june: 'juin', july: 'juillet', august: 'aout', september: 'septembre',
  october: 'octobre', november: 'novembre', december: 'decembre', monday: 'lundi', tuesday: 'mardi', wednesday: 'mercredi', thursday: 'jeudi',
  friday: 'vendredi', saturday: 'samedi', sunday: 'dimanche', morning: 'matin', evening: 'soir',
};

/**
 * Eighth round of issue 26 (claims and questions in the other language than their document): the common
 * vocabulary of business documents the two tables above left out, by what documents state (money, dates and
 * durations, parties and roles, obligations and permissions, exclusions, quantities and measures, premises and
 * goods, materials of quotes). Still general vocabulary: no name, product or figure.
 */
const COMMON: Record<string, string> = {
  // money
  extra: 'supplement supplementaire', surcharge: 'supplement majoration', supplement: 'supplement', additional: 'supplementaire additionnel',
  free: 'gratuit gratuite gratuits gratuitement offert', charged: 'facture factures', charges: 'charges frais', tariff: 'tarif', tariffs: 'tarifs',
  prices: 'prix tarifs', priced: 'prix', pricing: 'tarification tarifs', instalment: 'echeance mensualite versement', instalments: 'echeances mensualites versements',
  installment: 'echeance mensualite versement', flat: 'forfait forfaitaire', package: 'forfait', sum: 'somme', worth: 'valeur', spend: 'depenser',
  spent: 'depense depenses', euros: 'euros', euro: 'euro', dollars: 'dollars', pounds: 'livres', expressed: 'exprime exprimes libelle libelles',
  denominated: 'libelle libelles', budgeted: 'budgete prevu', overdue: 'retard impaye', unpaid: 'impaye impayee', receipt: 'recu quittance',
  // dates and durations
  dated: 'date datee', set: 'fixe fixee', scheduled: 'prevu prevue programme planifie', planned: 'prevu prevue planifie', effective: 'vigueur effet',
  expires: 'expire', expired: 'expire', latest: 'tard', declared: 'declare declaree declarees declares', declare: 'declarer declaration',
  declaration: 'declaration', submit: 'remettre soumettre deposer', submitted: 'remis soumis depose', received: 'recu recue recus',
  sent: 'envoye envoyee', delivered: 'livre livree livres', completed: 'termine acheve', completion: 'achevement fin', opening: 'ouverture',
  closing: 'fermeture cloture', closed: 'ferme fermee', open: 'ouvert ouverte', fortnight: 'quinzaine', quarter: 'trimestre', semester: 'semestre',
  lasts: 'dure', lasting: 'durant', starts: 'commence debute', begins: 'commence debute', ends: 'termine finit', extended: 'prolonge prolongee',
  extension: 'prolongation', deferred: 'reporte differe', weekend: 'week',
  // parties and roles
  adviser: 'conseiller conseillere', advisor: 'conseiller conseillere', consultant: 'consultant conseil', representative: 'representant representante',
  signatory: 'signataire', lessor: 'bailleur', lessee: 'preneur locataire', policyholder: 'souscripteur assure', beneficiary: 'beneficiaire',
  holder: 'titulaire', applicant: 'demandeur candidat', organiser: 'organisateur', organizer: 'organisateur', mover: 'demenageur', movers: 'demenageurs',
  moving: 'demenagement', removal: 'demenagement', carrier: 'transporteur', shipper: 'expediteur chargeur', sender: 'expediteur', recipient: 'destinataire',
  accountant: 'comptable', lawyer: 'avocat', notary: 'notaire', architect: 'architecte', engineer: 'ingenieur', doctor: 'medecin', nurse: 'infirmier infirmiere',
  teacher: 'enseignant professeur', student: 'etudiant eleve', partner: 'partenaire associe', shareholder: 'actionnaire associe', chief: 'chef',
  prepared: 'etabli etablie prepare redige', drafted: 'redige', named: 'nomme designe', appointed: 'nomme nommee designe', elected: 'elu elue',
  hired: 'embauche recrute', employs: 'emploie', headcount: 'effectif', workforce: 'effectif effectifs',
  // obligations and permissions
  shall: 'doit doivent', obliged: 'tenu tenue oblige', obligation: 'obligation', obligations: 'obligations', mandatory: 'obligatoire', permitted: 'autorise permis',
  prohibited: 'interdit interdite', provide: 'fournir', provided: 'fourni fournie fournis', supplied: 'fourni fournie fournis fournies', supply: 'fournir fourniture',
  attached: 'annexe annexee joint jointe', appended: 'annexe annexee', annex: 'annexe', appendix: 'annexe', charter: 'charte', regulations: 'reglement',
  bylaws: 'statuts', statutes: 'statuts', comply: 'respecter', respect: 'respecter', pack: 'emballer', packs: 'emballe', packing: 'emballage',
  packaging: 'emballage', handled: 'traite pris', borne: 'charge', entitled: 'droit', right: 'droit', refund_: 'rembourser',
  // exclusions
  excluded: 'exclu exclue exclus exclues', exclusion: 'exclusion', exclusions: 'exclusions', except: 'sauf excepte', unless: 'sauf',
  covered: 'couvert couverte couverts pris', separately: 'separement part', option: 'option', options: 'options',
  // quantities and measures
  number: 'nombre', area: 'surface superficie', surface: 'surface', square: 'carre carres', metres: 'metres', meters: 'metres', kilograms: 'kilogrammes kilos',
  tonnes: 'tonnes', litres: 'litres', volume: 'volume', piece: 'piece', pieces: 'pieces', pallet: 'palette', pallets: 'palettes', box: 'carton boite',
  boxes: 'cartons boites', sample: 'echantillon', samples: 'echantillons', kit: 'kit', kits: 'kits', dozen: 'douzaine', half: 'moitie demi', people: 'personnes',
  person: 'personne', persons: 'personnes', bedroom: 'chambre', bedrooms: 'chambres', rooms: 'pieces salles chambres', seats_: 'places',
  // premises and goods
  retail: 'commerciale commerce vente', shop: 'boutique magasin', store: 'magasin', premises: 'locaux', warehouse: 'entrepot', kitchen: 'cuisine',
  equipment: 'equipement equipements materiel', furniture: 'mobilier meubles', books: 'livres', clothes: 'vetements', crockery: 'vaisselle',
  fragile: 'fragile fragiles', goods: 'marchandises biens', custom: 'personnalise mesure', colour: 'couleur teinte', color: 'couleur teinte', stain: 'teinte',
  front: 'entree facade', entrance: 'entree', technical: 'technique techniques', commercial: 'commercial commerciale', bakery: 'boulangerie',
  restaurant: 'restaurant', hotel: 'hotel', pharmacy: 'pharmacie', hairdresser: 'coiffeur', garage: 'garage', laboratory: 'laboratoire', lab: 'laboratoire',
  // materials of quotes and works
  wood: 'bois', oak: 'chene', pine: 'pin', solid: 'massif massive', steel: 'acier', aluminium: 'aluminium', glass: 'verre vitrage', stone: 'pierre',
  brick: 'brique', tile: 'carrelage tuile', tiles: 'carrelage tuiles', paint: 'peinture', painting: 'peinture', insulation: 'isolation', plumbing: 'plomberie',
  heating: 'chauffage', lighting: 'eclairage',
};

/**
 * Fourteenth round of issue 26 (lcross2): words of the sets' documents that a question in the other language said and
 * the tables above did not render (crafts and trades, leisure and sport, food and farming, premises and their services,
 * care of goods). General vocabulary still: no name, product or figure.
 */
const TRADES: Record<string, string> = {
  harvest: 'recolte vendange vendanges', honey: 'miel', beekeeping: 'apiculture apicole', hive: 'ruche', hives: 'ruches', grape: 'raisin', grapes: 'raisins',
  vineyard: 'vignoble vigne', wine: 'vin', crop: 'recolte culture', weaving: 'tissage', mill: 'usine filature moulin', loom: 'metier', looms: 'metiers',
  weft: 'trame', adjuster: 'regleur', adjusters: 'regleurs', efficiency: 'rendement efficacite', linen: 'linge', laundry: 'blanchisserie linge',
  damaged: 'endommage endommagee abime abimee', lost: 'perdu perdue perdus perdues', found: 'trouve trouves', kept: 'conserve conserves garde gardes',
  keep: 'conserver garder', property: 'objets biens propriete', reception: 'accueil reception', desk: 'accueil guichet',
  skater: 'patineur', skaters: 'patineurs', skate: 'patin', skates: 'patins', rink: 'patinoire piste', ice: 'glace', climbing: 'escalade', climber: 'grimpeur',
  gym: 'salle', pool: 'piscine bassin', swimming: 'natation baignade', class: 'cours seance', classes: 'cours seances', lesson: 'cours lecon', lessons: 'cours lecons',
  instructor: 'moniteur instructeur', school: 'ecole scolaire', canteen: 'cantine restauration', meals: 'repas', dish: 'plat', course_: 'plat',
  maintain: 'entretenir', maintains: 'entretient assure', maintained: 'entretenu', fitted: 'installe equipe monte', carried: 'realise effectue',
  exhibition: 'exposition', title: 'titre intitule', flue: 'conduit', liner: 'tubage', supply_: 'approvisionnement', return: 'retour restitution',
};

const EN_FR = new Map<string, string[]>();
const FR_EN = new Map<string, string[]>();
for (const [en, fr] of [...Object.entries(PAIRS), ...Object.entries(DOMAINS), ...Object.entries(COMMON), ...Object.entries(TRADES)]) {
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
  const exact = [...(EN_FR.get(folded) ?? []), ...(FR_EN.get(folded) ?? [])];
  const found = exact.length > 0 || folded.length < STEMMED_FROM ? exact : byStem(folded);
  return [...new Set([...found, ...(SHORT_BOTH.get(folded) ?? [])])].filter((w) => w !== folded);
}

/**
 * A word the glossary does not list as written is looked up by its stem in each language (seventh round):
 * the glossary lists one form of a word (`ascenseur`, `container`), a question writes another (`ascenseurs`,
 * `containers`, `reportée`, `signalée`). From STEMMED_FROM letters, so that a short word of one language is not
 * read as the stem of another's (`du`, `or`).
 */
const STEMMED_FROM = 5;
type Stem = (w: string) => string;
const require = createRequire(import.meta.url);
const { stemmer: stemEnglish } = require('@orama/stemmers/english') as { stemmer: Stem };
const { stemmer: stemFrench } = require('@orama/stemmers/french') as { stemmer: Stem };
let stemIndex: { en: Map<string, string[]>; fr: Map<string, string[]> } | null = null;
function byStem(folded: string): string[] {
  if (!stemIndex) {
    const en = new Map<string, string[]>();
    const fr = new Map<string, string[]>();
    for (const [w, out] of EN_FR) if (w.length >= STEMMED_FROM - 1) en.set(stemEnglish(w), [...(en.get(stemEnglish(w)) ?? []), ...out]);
    for (const [w, out] of FR_EN) if (w.length >= STEMMED_FROM - 1) fr.set(stemFrench(w), [...(fr.get(stemFrench(w)) ?? []), ...out]);
    stemIndex = { en, fr };
  }
  let found = stemMemo.get(folded);
  if (!found) {
    found = [...(stemIndex.en.get(stemEnglish(folded)) ?? []), ...(stemIndex.fr.get(stemFrench(folded)) ?? [])];
    if (stemMemo.size >= STEM_MEMO_MAX) stemMemo.clear();
    stemMemo.set(folded, found);
  }
  return found;
}
/** Words looked up by stem so far, emptied when full (the verifier reads the same words again and again). */
const STEM_MEMO_MAX = 50_000;
const stemMemo = new Map<string, string[]>();

/**
 * English and French words of one Latin root are written by regular ending pairs (fourteenth round, lcross2):
 * *olympic* / *olympique*, *capacity* / *capacité*, *external* / *externe*, *dentist* / *dentiste*, *furious* /
 * *furieux*, *technician* / *technicien*. Each pair, read both ways, rewrites a word's ending into the other language's;
 * the stem before it (4 letters at least) is kept. A word no glossary lists is still found in a document of the
 * other language when it is such a cognate. Suffixes only, no stem: a false friend stays possible, so a cognate counts
 * below a translation (light's coverage reads it at the weight of a related word).
 */
const COGNATE_ENDINGS: [string, string][] = [
  ['ical', 'ique'], ['ic', 'ique'], ['ity', 'ite'], ['ty', 'te'], ['y', 'ie'], ['ous', 'eux'], ['or', 'eur'], ['ist', 'iste'], ['ism', 'isme'],
  ['ive', 'if'], ['ary', 'aire'], ['al', 'el'], ['al', 'e'], ['ian', 'ien'], ['ize', 'iser'], ['ise', 'iser'], ['ed', 'e'], ['er', 're'],
];
const COGNATE_STEM = 4;

/** The other language's words a folded word may be a cognate of, by COGNATE_ENDINGS (the word itself excluded). */
export function cognatesOf(folded: string): string[] {
  if (!/^\p{L}+$/u.test(folded) || folded.length < COGNATE_STEM + 1) return [];
  const out = new Set<string>();
  for (const [en, fr] of COGNATE_ENDINGS) {
    for (const [from, to] of [[en, fr], [fr, en]] as const) {
      if (!folded.endsWith(from)) continue;
      const stem = folded.slice(0, folded.length - from.length);
      if (stem.length >= COGNATE_STEM) out.add(stem + to);
    }
  }
  out.delete(folded);
  return [...out];
}
