/**
 * A curated, domain-general paraphrase lexicon of business documents, English and French (issue 26): words
 * a customer and a document use for one thing where WordNet does not relate them (*hosted* / *stored*,
 * *testers* / *QA*, *footage* / *recordings*, *fee* / *charge*, *frais* / *tarif*). Each group lists words
 * (folded: lower case, no accents, one word each) that may stand for one another in contracts, invoices,
 * policies, manuals, minutes and tables. General vocabulary only: no name, product, figure or wording of a
 * particular document. Weaker than a synonym: callers weigh a paraphrase below the word itself.
 *
 * Near misses depend on what is *not* here: a group never joins two things a question may tell apart
 * (a penalty is not a service credit, a warranty is not a return, a parent is not a grand-parent, a deposit
 * is not a balance).
 */
const GROUPS: string[] = [
  // Money asked and stated
  'fee fees charge charges cost costs price prices tariff tariffs pricing frais cout couts tarif tarifs prix',
  'owed outstanding remaining balance unpaid restant reste solde impaye',
  'paid settled reimbursed payment paye regle acquitte',
  'refund reimburse reimbursement repay repayment rembourser remboursement',
  'salary salaries wage wages pay remuneration compensation salaire remuneration traitement',
  'allowance stipend subsidy contribution reimbursement indemnite allocation participation forfait',
  'bonus premium prime gratification',
  'discount rebate reduction remise rabais reduction ristourne',
  // lanswer3 round: an insurance excess (UK) is a deductible (US), a franchise in French; a tenancy's or a membership's
  // bond is its deposit (a caution, a dépôt de garantie); a professional's remuneration is said as fees (honoraires).
  'excess excesses deductible deductibles franchise franchises',
  'deposit deposits bond bonds caution depot',
  'remuneration remunere honoraires emoluments',
  'invoice invoices bill bills billed invoiced facture factures facture',
  'quote quotation estimate devis estimation',
  'excluding excl exclusive net ht hors',
  'including incl inclusive gross ttc compris',
  'tax taxes vat tva taxe',
  'total sum overall amount montant somme',
  // People and roles
  'employee employees staff worker workers personnel colleague colleagues salarie salaries employe employes collaborateur collaborateurs agent agents',
  'tester testers qa testing test',
  'engineer engineers developer developers technician technicians ingenieur ingenieurs technicien techniciens',
  'manager managers supervisor supervisors superior superiors boss lead responsable superieur hierarchique chef',
  'secretary notetaker scribe rapporteur recorder redacteur secretaire',
  'chair chairman chairwoman chairperson president presidente presided',
  'attendee attendees participant participants present attendance trainee trainees delegate delegates stagiaire stagiaires',
  'customer customers client clients buyer purchaser acheteur',
  'supplier suppliers vendor vendors provider providers contractor contractors fournisseur prestataire',
  'recruit recruiting recruitment hire hiring hired employ onboard recruter embaucher embauche recrutement',
  'resign resignation quit departure demission depart',
  'dismiss dismissal fire termination licenciement licencier',
  // Places and storage
  'stored store storage hosted host hosting housed datacenter stocke stockage heberge hebergement',
  'premises site location venue office locaux site lieu',
  'outing trip excursion offsite retreat event seminar sortie excursion seminaire evenement',
  'headquarters registered siege',
  // Time
  'deadline due cutoff echeance butoir',
  'start begin commence commencement effective starting debut commencer demarrer',
  'end expire expiry expiration ending close fin expiration terme',
  'postpone postponed delay delayed defer deferred move moved reschedule rescheduled push pushed report reporte reporter decale',
  'duration term period length duree periode',
  'notice warning preavis',
  'annual yearly annum annuel annuelle',
  'monthly mensuel mensuelle',
  'weekly hebdomadaire',
  // Work and leave
  'telecommute telework teleworking remote home homeworking wfh teletravail distance',
  'leave holiday holidays vacation absence conge conges vacances',
  'sick illness sickness maladie arret',
  'wedding marriage married marry nuptials mariage noces pacs',
  'death bereavement funeral deces obseques',
  'birth newborn paternity maternity naissance',
  'overseas abroad foreign international etranger',
  'training course courses session workshop formation cours atelier stage',
  'seats places spots capacity',
  // Goods, delivery and equipment
  'shipping delivery transport freight carriage postage livraison transport expedition port',
  'deliver delivered ship shipped dispatch dispatched livrer livre expedie',
  'order orders purchase commande commandes achat',
  'item items article articles line lines product products ligne lignes produit produits',
  'laptop laptops computer computers notebook pc ordinateur ordinateurs portable',
  'phone mobile smartphone telephone portable',
  'footage recording recordings video videos camera cctv enregistrement enregistrements images',
  'recorded recording filmed enregistre',
  'setting settings mode modes speed speeds level levels reglage mode modes vitesse',
  'noise sound loud loudness quiet quietest noisy decibel decibels bruit sonore silencieux',
  'weight heavy weigh weighs mass poids lourd pese',
  'filter filters cartridge cartridges filtre filtres cartouche',
  'fault error malfunction defect failure panne erreur defaut anomalie',
  'repair fix servicing maintenance reparation depannage entretien intervention',
  'replace replacement swap remplacer remplacement',
  'warranty guarantee garantie',
  'callout intervention emergency visit urgence deplacement',
  // Contracts and governance
  'contract agreement deal contrat accord convention',
  'terminate termination cancel cancellation rescind resiliation resilier annulation annuler',
  'renew renewal extension extend reconduction renouvellement prolongation',
  'signed executed concluded signe conclu',
  'cap ceiling maximum limit plafond maximum limite',
  'minimum floor least plancher minimum',
  'approve approved approval authorise authorised authorize authorized validate validated agree agreed adopt adopted approuver approuve valider valide adopte autorise',
  'reject rejected refuse refused decline declined deny denied rejeter rejete refuser refuse',
  'meeting meetings session board reunion seance',
  'minutes proces verbal',
  'decision resolution decided resolved decide',
  'budget funding funds envelope financement enveloppe budget',
  'uptime availability disponibilite',
  'respond response reply answer acknowledge acknowledgement repondre reponse',
  'backup backups copy copies sauvegarde sauvegardes copie',
  'data information records donnees informations',
  'delete deletion erase erasure destroy purge supprimer suppression effacer',
  'keep retain retention preserve conservation conserver garder',
];

/**
 * More groups, written for the verifier's claims (what a document *does*: move, end, pay, report, approve, cover…),
 * each as `English words | French words`: the verifier stems one language at a time (French *reporté*, postponed,
 * stemmed as English is *report*). Light does not read them yet (`paraphrasesOf` is the groups above); the verifier
 * reads both (`paraphraseStems`).
 */
const ACTION_GROUPS: string[] = [
  // Sixteenth round (vfrench): French verbs of one statement that WordNet (English) cannot relate; French side only, so no
  // English claim reads them (`envisagée` / `propose`, `présentés` / `soumis`, `disposent de` / `bénéficient de`, `s'achève` /
  // `se termine` / `fermeture`).
  ' | envisager envisage envisagee envisagees envisagent proposer propose proposee proposees proposent projeter projete projetee',
  ' | presenter presente presentee presentes presentees presentent soumettre soumis soumise soumises soumet soumettent',
  ' | disposer dispose disposent beneficier beneficie beneficient',
  ' | achever acheve achevee achevent terminer termine terminee terminent cloturer cloture cloturee fermeture',
  // Time moves of an event.
  'postpone postponed postponement delay delayed defer deferred reschedule rescheduled move moved push pushed | reporte reportee repousse repoussee decale decalee differe differee ajourne ajournee',
  'advance advanced bring brought earlier anticipate anticipated | avance avancee',
  // Ends and starts.
  'terminate terminated termination end ended cancel cancelled canceled cancellation rescind | resilier resilie resiliee resiliation annuler annule annulee annulation rompre',
  'start started begin began begun commence commenced effective effect starts | debut commence commencer debute prend prendre effet vigueur',
  // Money.
  'pay paid payment payable settle settled settlement remit | regler regle reglee reglement payer paye payee paiement acquitter verser verse versement',
  'invoice invoiced bill billed billing charge charged | facture facturee facturer',
  'fee fees charge charges | redevance frais tarif',
  'discount discounts reduction rebate off | remise rabais reduction',
  'refund refunded reimburse reimbursed reimbursement | rembourser rembourse remboursement rendre rend rendent rendu rendue rendus rendues',
  'receive received get gets got obtain obtained earn earns earned entitled | percevoir percoit touche touchent toucher recevoir recoit obtenir beneficie beneficient droit',
  'cost costs price priced prices | cout coute prix',
  'combine combined cumulate cumulative stack stacked | cumuler cumulable cumulables combiner combinable',
  'complete full entire whole total totality | complet complete entier entiere totalite integral integrale integralite',
  // People.
  'staff employee employees personnel workforce worker workers | salarie salaries employe employes personnel collaborateur collaborateurs effectif effectifs',
  'customer customers client clients buyer purchaser | client clients acheteur',
  'supplier suppliers vendor provider contractor | prestataire fournisseur',
  // Telling and asking.
  'report reported notify notified inform informed tell told declare declared signal | signaler signale declarer declare informer informe prevenir previent notifier',
  'send sent submit submitted transmit transmitted forward forwarded | envoyer envoie transmettre transmet soumettre remettre fournir',
  'approve approved adopt adopted endorse endorsed ratify ratified validate validated accept accepted | approuver approuve approuvee adopter adopte adoptee valider valide validee accepte acceptee enteriner',
  'reject rejected refuse refused decline declined deny denied | rejeter rejete rejetee refuser refusee',
  'request requested ask asked demand | demande demandee demander solliciter',
  // Eighth round: who a document is for and who wrote it (`addressed to` / `For the attention of`, `written by` / `Author:`).
  'address addressed attention attn | adresse adressee adresser attention',
  'write wrote written writer author authored draft drafted prepare prepared | rediger redige redigee redacteur redactrice auteur etablir etabli etablie',
  // Work done.
  'lead led run ran conduct conducted facilitate facilitated host hosted teach taught trainer instructor | animer anime animee dispense dispensee formateur formatrice',
  'retrieve retrieved export exported download downloaded extract extracted recover recovered | recuperer recupere exporter exporte telecharger',
  'repair repaired fix fixed mend | reparer repare',
  'replace replaced swap swapped substitute | remplacer remplace',
  'visit visits visited come comes came call intervention intervene | visite visites vient viennent venir passage intervient intervenir',
  'maintenance maintain maintained servicing upkeep | entretien maintenance entretenir',
  'clean cleaned cleaning vacuum vacuumed vacuuming dust | nettoyer nettoyage aspirer',
  'check checked inspect inspected inspection verify verified | verifier verifie controle controler',
  'buy bought purchase purchased acquire acquired order ordered | acheter achete achat commander commande',
  'hire hired recruit recruited employ employed | embaucher embauche recruter recrute',
  'sign signed execute executed | signer signe signee',
  'hold held organise organised organize organized convene convened | tenir tenue organiser organise reunir',
  'attend attended participate participated join joined | assister participer',
  'cover covers covered include includes included comprise comprises comprised contain contains | couvrir couvre inclure inclut comprendre comprend',
  'consist consists comprise composed constitute constituted | compose composee constitue constituee',
  'apply applies applied concern concerns relate relates | appliquer applique concerner concerne',
  'change changed modify modified amend amended alter altered adjust adjusted | modifier modifie changer change',
  'increase increased raise raised rise rose grow grew augment | augmenter augmente hausser relever hausse progresser progresse progression',
  'decrease decreased reduce reduced cut lower lowered drop dropped | diminuer diminue baisser baisse reduire reduit',
  'allow allowed permit permitted authorise authorised authorize authorized entitle entitled | autoriser autorise permis permettre droit',
  'forbid forbidden prohibit prohibited ban banned bar barred | interdire interdit interdite prohiber',
  'need needs needed require requires required must mandatory necessary obligatory | exiger exige necessiter necessite obligatoire requis',
  'store stored keep kept retain retained conserve conserved | conserver stocker stocke garder',
  'use used utilise utilised utilize utilized | utiliser utilise',
  'cause caused root trace traced origin attributable | cause origine imputable',
  'identify identified find found determine determined establish established | identifier identifie constater constate',
  // States and things.
  'outage outages unavailable unavailability downtime interruption breakdown | panne indisponible indisponibilite interruption',
  'fault faulty defect defective flaw flawed faulty | defaut defauts defectueux defectueuse',
  'damaged broken damage | endommage endommagee casse cassee',
  'lost missing | perdu perdue egare egaree',
  'sick ill illness sickness | malade maladie',
  'leave absence absent | conge conges absence absent',
  'remote telework teleworking homeworking | teletravail distance',
  'office premises workplace site | bureau bureaux locaux',
  'phone telephone mobile smartphone | telephone portable',
  'laptop computer notebook | ordinateur portable',
  'limit cap ceiling maximum | plafond limite plafonne',
  'deadline due latest | limite echeance',
  'quarter quarterly trimester | trimestre trimestriel trimestrielle',
  'year yearly annual annually | annuel annuelle annee',
  'month monthly | mensuel mensuelle mois',
  'week weekly | hebdomadaire semaine',
  'meeting session gathering | reunion seance',
  'training course session workshop | formation stage atelier',
];

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();

const INDEX = new Map<string, Set<string>>();
for (const group of GROUPS) {
  const words = group.split(' ').filter(Boolean);
  for (const w of words) {
    let set = INDEX.get(w);
    if (!set) INDEX.set(w, (set = new Set()));
    for (const o of words) if (o !== w) set.add(o);
  }
}

/** The words of the lexicon that may stand for a folded word (none when it is in no group). */
export function paraphrasesOf(folded: string): string[] {
  return [...(INDEX.get(folded) ?? [])];
}

/** A group's English and French words (`en … | fr …`). */
const sides = (g: string): { en: string[]; fr: string[] } => {
  const [en = '', fr = ''] = fold(g).split('|');
  return { en: en.split(/\s+/).filter(Boolean), fr: fr.split(/\s+/).filter(Boolean) };
};

const byStemmer = new Map<string, WeakMap<(w: string) => string, Map<string, Set<string>>>>();

/**
 * The lexicon over stems, for one language with its stemmer: stem → stems of the words it stands with (its own
 * stem excluded). The shared groups above (both languages in one list: each word stemmed as this language's) and
 * this language's side of ACTION_GROUPS. Built once per stemmer.
 */
export function paraphraseStems(language: 'en' | 'fr', stem: (w: string) => string): Map<string, Set<string>> {
  let memo = byStemmer.get(language);
  if (!memo) byStemmer.set(language, (memo = new WeakMap()));
  let map = memo.get(stem);
  if (map) return map;
  map = new Map();
  const groups = [...GROUPS.map((g) => g.split(' ')), ...ACTION_GROUPS.map((g) => sides(g)[language])];
  for (const g of groups) {
    const stems = [...new Set(g.filter(Boolean).map(stem).filter(Boolean))];
    for (const s of stems) {
      let set = map.get(s);
      if (!set) map.set(s, (set = new Set()));
      for (const o of stems) if (o !== s) set.add(o);
    }
  }
  memo.set(stem, map);
  return map;
}
