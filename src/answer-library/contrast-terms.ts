/**
 * The contrasting terms the near-miss guards know (near-miss-guards.ts): groups of terms that name
 * different things of one kind in security questionnaires and benefits questions. Data only; add a group
 * when a near miss gets through, and a probe for it to bench/approved-answer-pairs*.jsonl.
 */

/**
 * Groups of terms that name different things of one kind: each entry lists the spellings of one term.
 * Two questions that name different terms of a group ask different things. `scoped` groups qualify the
 * whole question ("at rest"): there, naming a term on one side only is a difference too.
 */
export type ContrastGroup = { name: string; terms: string[][]; scoped?: boolean };

export const CONTRAST_GROUPS: ContrastGroup[] = [
  {
    name: "state of data",
    scoped: true,
    terms: [
      ["at rest", "stored data", "in storage", "on disk", "when stored", "when it is stored", "while stored"],
      ["in transit", "in motion", "in flight", "over the network", "over the wire", "transmitted", "transmission"],
      ["in use", "in memory"],
    ],
  },
  {
    name: "direction",
    scoped: true,
    terms: [
      ["inbound", "incoming", "ingress"],
      ["outbound", "outgoing", "egress"],
    ],
  },
  {
    name: "network",
    scoped: true,
    terms: [
      ["in-network", "in network"],
      ["out-of-network", "out of network"],
    ],
  },
  {
    name: "side",
    terms: [
      ["internal", "internally"],
      ["external", "externally", "externally exposed", "internet-facing", "third-party", "third party"],
    ],
  },
  {
    name: "environment",
    scoped: true,
    terms: [
      ["production", "prod"],
      ["non-production", "staging", "test environment", "development environment", "dev environment"],
    ],
  },
  {
    name: "people",
    terms: [
      ["employee", "employees", "staff", "personnel", "workforce"],
      ["contractor", "contractors", "consultant", "consultants"],
      ["vendor", "vendors", "supplier", "suppliers", "subprocessor", "subprocessors", "subcontractor"],
      ["customer", "customers"],
      ["regulator", "regulators", "authorities", "supervisory authority"],
      ["administrator", "administrators", "admin", "admins"],
    ],
  },
  {
    name: "family",
    terms: [
      ["spouse", "spouses", "partner"],
      ["child", "children", "dependent child", "kids"],
      ["parent", "parents"],
    ],
  },
  { name: "coverage", terms: [["individual", "self-only", "employee only"], ["family"]] },
  {
    name: "plan tier",
    terms: [["standard"], ["plus"], ["premium"], ["basic"], ["enterprise"], ["professional", "pro"], ["free tier"]],
  },
  {
    name: "cost share",
    terms: [
      ["deductible", "deductibles"],
      ["copay", "copays", "copayment", "copayments", "co-pay"],
      ["coinsurance", "co-insurance"],
      ["out-of-pocket maximum", "out-of-pocket max", "out-of-pocket limit"],
      ["premium", "premiums"],
    ],
  },
  {
    name: "care",
    terms: [
      ["dental"],
      ["vision", "eye"],
      ["hearing"],
      ["mental health", "behavioral health"],
      ["prescription", "prescriptions", "drug", "drugs", "medication", "medications"],
      ["maternity", "pregnancy"],
      ["emergency"],
      ["preventive", "preventative"],
      ["chiropractic"],
    ],
  },
  {
    name: "frequency",
    terms: [
      ["daily", "every day", "each day"],
      ["weekly", "every week", "each week"],
      ["monthly", "every month", "each month"],
      ["quarterly", "every quarter", "each quarter"],
      ["annually", "annual", "yearly", "every year", "each year", "once a year"],
    ],
  },
  {
    name: "time unit",
    terms: [
      ["hour", "hours"],
      ["day", "days"],
      ["week", "weeks"],
      ["month", "months"],
      ["year", "years"],
    ],
  },
  {
    name: "bound",
    terms: [
      ["minimum", "at least", "lowest"],
      ["maximum", "at most", "highest", "limit"],
    ],
  },
  {
    name: "order",
    terms: [
      ["before", "prior to"],
      ["after", "following"],
      ["during", "while"],
    ],
  },
  {
    name: "change",
    terms: [
      ["increase", "increases", "raise"],
      ["decrease", "decreases", "reduce", "reduces"],
    ],
  },
  { name: "access", terms: [["read"], ["write"]] },
  {
    name: "transfer",
    terms: [
      ["upload", "uploads"],
      ["download", "downloads"],
    ],
  },
  {
    name: "cipher",
    terms: [
      ["encrypt", "encrypts", "encrypted", "encryption"],
      ["decrypt", "decrypts", "decrypted", "decryption"],
    ],
  },
  {
    name: "visibility",
    terms: [
      ["public", "publicly"],
      ["private", "privately"],
    ],
  },
  { name: "rank", terms: [["primary"], ["secondary"], ["tertiary"]] },
  {
    name: "lifecycle",
    terms: [
      ["onboarding", "hiring", "hire", "joiners"],
      ["offboarding", "termination", "terminated", "leavers", "departure"],
    ],
  },
  {
    name: "authentication",
    terms: [
      ["multi-factor", "multifactor", "two-factor", "2fa", "mfa"],
      ["single sign-on", "sso"],
      ["password", "passwords", "passphrase"],
    ],
  },
  {
    name: "backup",
    terms: [
      ["backup", "backups", "back up"],
      ["restore", "restores", "restoring", "restoration"],
    ],
  },
  {
    name: "place",
    terms: [
      ["central", "centrally", "centralized", "centralised", "centralize", "centralise"],
      ["local", "locally"],
    ],
  },
  {
    name: "permission",
    terms: [
      ["allow", "allows", "permit", "permits"],
      ["prohibit", "prohibits", "forbid", "block", "deny"],
    ],
  },
  {
    name: "request",
    terms: [
      ["claim", "claims"],
      ["appeal", "appeals"],
      ["complaint", "complaints", "grievance"],
    ],
  },
  { name: "hosting", terms: [["on-premises", "on premises", "on-prem"], ["cloud"]] },
  {
    name: "platform",
    terms: [
      ["mobile", "phone", "phones"],
      [
        "desktop",
        "desktops",
        "laptop",
        "laptops",
        "workstation",
        "workstations",
        "client system",
        "client systems",
        "client machine",
        "client machines",
        "client device",
        "client devices",
      ],
      ["server", "servers"],
      ["database", "databases"],
      ["network device", "network devices", "networking devices", "router", "routers"],
    ],
  },
  {
    name: "physical or logical",
    terms: [
      ["physical", "physically"],
      ["logical", "logically"],
    ],
  },
  {
    name: "automation",
    terms: [
      ["automated", "automatic", "automatically"],
      ["manual", "manually"],
    ],
  },
  {
    name: "tense",
    terms: [
      ["planned", "plan to", "will you", "roadmap"],
      ["currently", "today"],
    ],
  },
];
