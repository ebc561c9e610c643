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
