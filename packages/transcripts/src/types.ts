// The in-memory transcript model (Qwen Code's record shape) and the inspector's output.
// The inspector's record and report shapes (docs/branching.md, "The transcript inspector's rules"); readers map other formats onto ChatRecord.

export type ChatRecordType = 'user' | 'assistant' | 'tool_result' | 'system';

export interface ChatPart {
  text?: string;
  /** Marks model reasoning; assistant summaries skip these parts. */
  thought?: boolean;
  functionCall?: unknown;
  functionResponse?: unknown;
  [field: string]: unknown;
}

export interface ChatMessage {
  role: string;
  parts: ChatPart[];
  [field: string]: unknown;
}

export interface SystemPayload {
  /** What the user saw; preferred over the message parts for a user record's text. */
  displayText?: string;
  [field: string]: unknown;
}

/** One JSONL line. Fields other than the named ones are carried along and ignored. */
export interface ChatRecord {
  uuid: string;
  parentUuid: string | null;
  sessionId: string;
  timestamp: string;
  type: ChatRecordType;
  subtype?: string;
  message?: ChatMessage;
  systemPayload?: SystemPayload;
  externalInputKind?: string;
  [field: string]: unknown;
}

export type BranchClassification = 'ordinary' | 'rewind-descendant' | 'rewind-sibling' | 'mixed-rewind';

export interface RecordCounts {
  user: number;
  assistant: number;
  toolResult: number;
  system: number;
}

export interface BranchSummary {
  leafUuid: string;
  branchPointUuid: string | null;
  classification: BranchClassification;
  containsRewindUuids: string[];
  siblingRewindUuids: string[];
  firstUserTextAfterBranchPoint?: string;
  lastUserText?: string;
  lastAssistantText?: string;
  recordCounts: RecordCounts;
  startedAt: string;
  updatedAt: string;
}

export type Diagnostic =
  | { kind: 'missing-parent'; childUuid: string; missingParentUuid: string }
  | { kind: 'parent-cycle'; uuids: string[] }
  | { kind: 'conflicting-parent'; uuid: string; parentUuids: (string | null)[] };

export interface InspectionResult {
  branches: BranchSummary[];
  diagnostics: Diagnostic[];
}

export interface ChainGap {
  childUuid: string;
  missingParentUuid: string;
}

export interface OrderedUuidChain {
  /** Root first, leaf last. */
  uuids: string[];
  gaps: ChainGap[];
}

export interface BuildChainOptions {
  /** Where the walk starts; the last physical record when absent. */
  leafUuid?: string;
  /** Report the missing parent that ends the chain. */
  detectGaps?: boolean;
}
