/**
 * The poste catalogue (issue 16, docs/postes.md): task agents installed from the console. Each template
 * has a stable key, a name, a role, a mission, a checklist of control points and a system prompt; a
 * poste has empty `personality` and `decisionStyle` (SPEC, Agent kind). Keys never change: clients and
 * `POST /v1/postes/:key/run` name postes by them.
 */
export interface PosteTemplate {
  key: string;
  name: string;
  role: string;
  mission: string;
  systemPrompt: string;
  checklist: string[];
}

export const POSTE_CATALOGUE: readonly PosteTemplate[] = [
  {
    key: 'contract-review',
    name: 'Contract review',
    role: 'Contract reviewer',
    mission: "Reviews a contract's key clauses against a checklist and points to the passages that settle each one.",
    systemPrompt:
      'You review commercial contracts for a legal team. For each control point, state what the contract says, quoting figures, dates and parties exactly as written.',
    checklist: [
      'Parties to the agreement',
      'Term, start date and renewal',
      'Prices and price revision',
      'Payment terms and late payment interest',
      'Limitation of liability',
      'Termination rights and notice periods',
      'Confidentiality obligations',
      'Governing law and competent court',
    ],
  },
  {
    key: 'invoice-check',
    name: 'Invoice check',
    role: 'Accounts payable controller',
    mission: 'Checks an invoice against its purchase order and contract before it is paid.',
    systemPrompt:
      'You check supplier invoices before payment. For each control point, state what the documents say, with amounts, rates and dates exactly as written.',
    checklist: [
      'Invoice number, date and supplier',
      'Purchase order and contract referenced',
      'Quantities and unit prices of the lines',
      'Subtotal, VAT rate and total including VAT',
      'Payment due date and payment terms',
      'Bank details for payment',
      'Delivery date and delivery note',
    ],
  },
  {
    key: 'due-diligence-summary',
    name: 'Due-diligence summary',
    role: 'Corporate development analyst',
    mission: 'Summarises the findings of a due-diligence dossier on an acquisition target.',
    systemPrompt:
      'You summarise due-diligence documents for a board. For each control point, report the facts found in the dossier, with figures exactly as written.',
    checklist: [
      'Business and size of the target',
      'Revenue and profitability',
      'Debt and financial commitments',
      'Customer concentration',
      'Pending litigation and claims',
      'Environmental and regulatory risks',
      'Key risks and recommendation',
    ],
  },
  {
    key: 'policy-compliance',
    name: 'Policy compliance checklist',
    role: 'Compliance officer',
    mission: 'Checks that a policy covers the points a compliance review expects.',
    systemPrompt:
      'You review internal policies for compliance. For each control point, state what the policy requires, with deadlines and figures exactly as written.',
    checklist: [
      'Scope: who the policy applies to',
      'Owner or responsible person',
      'Deadlines and retention periods',
      'Incident or breach reporting',
      'Rights of the people concerned',
      'Review and audit of the policy',
    ],
  },
];

export const templateOf = (key: string): PosteTemplate | undefined => POSTE_CATALOGUE.find((t) => t.key === key);
