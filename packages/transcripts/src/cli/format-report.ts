// Renders an InspectionReport: exact JSON for machines, a table for people.
import type { CompactionMark, ReaderDiagnostic } from '../readers/types';
import type { BranchSummary, Diagnostic } from '../types';
import type { InspectionReport } from './report';

export function formatReportJson(report: InspectionReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

const NONE = '-';

export function formatReportTable(report: InspectionReport, fileName: string): string {
  const diagnosticCount = report.diagnostics.length + report.readerDiagnostics.length;
  const lines = [
    [
      fileName,
      report.format,
      `${plural(report.recordCount, 'record')}${report.sidechainRecordCount > 0 ? ` (+${report.sidechainRecordCount} sidechain)` : ''}`,
      plural(report.branches.length, 'leaf', 'leaves'),
      plural(diagnosticCount, 'diagnostic'),
    ].join(' · '),
  ];

  if (report.branches.length > 0) {
    lines.push('', ...branchTable(report.branches));
  }
  if (report.compactions.length > 0) {
    lines.push('', 'Compactions');
    for (const compaction of report.compactions) lines.push(`  ${describeCompaction(compaction)}`);
  }
  if (report.joinedOrphans !== undefined) {
    lines.push('', 'Repairs');
    for (const join of report.joinedOrphans)
      lines.push(
        `  line ${join.line}: joined-orphan: ${join.uuid} names parent ${join.missingParentUuid}, never written; joined to ${join.joinedTo}, written before it`,
      );
  }
  if (report.skippedRecordTypes !== undefined) {
    lines.push('', 'Skipped');
    for (const { recordType, count } of report.skippedRecordTypes)
      lines.push(`  skipped: ${plural(count, 'record')} of type ${JSON.stringify(recordType)}`);
  }
  if (diagnosticCount > 0) {
    lines.push('', 'Diagnostics');
    for (const diagnostic of report.readerDiagnostics)
      lines.push(`  ${describeReaderDiagnostic(diagnostic)}`);
    for (const diagnostic of report.diagnostics) lines.push(`  ${describeDiagnostic(diagnostic)}`);
  }
  return `${lines.join('\n')}\n`;
}

function branchTable(branches: readonly BranchSummary[]): string[] {
  const header = ['#', 'LEAF', 'CLASS', 'BRANCH POINT', 'USER', 'ASST', 'TOOL', 'SYS', 'STARTED', 'UPDATED'];
  const rightAligned = new Set([0, 4, 5, 6, 7]);
  const rows = branches.map((branch, index) => [
    String(index + 1),
    branch.leafUuid,
    branch.classification,
    branch.branchPointUuid ?? NONE,
    String(branch.recordCounts.user),
    String(branch.recordCounts.assistant),
    String(branch.recordCounts.toolResult),
    String(branch.recordCounts.system),
    branch.startedAt || NONE,
    branch.updatedAt || NONE,
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const render = (cells: string[]) =>
    cells
      .map((cell, column) =>
        rightAligned.has(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!),
      )
      .join('  ')
      .trimEnd();
  const indent = ' '.repeat(widths[0]! + 2);

  const lines = [render(header)];
  branches.forEach((branch, index) => {
    lines.push(render(rows[index]!));
    for (const [label, value] of details(branch))
      lines.push(`${indent}${label.padEnd(DETAIL_WIDTH)}${value}`);
  });
  return lines;
}

const DETAIL_WIDTH = 'first after branch point  '.length;

function details(branch: BranchSummary): [string, string][] {
  const rows: [string, string | undefined][] = [
    ['first after branch point', branch.firstUserTextAfterBranchPoint],
    ['last user', branch.lastUserText],
    ['last assistant', branch.lastAssistantText],
    ['rewinds on chain', branch.containsRewindUuids.join(', ') || undefined],
    ['rewinds beside', branch.siblingRewindUuids.join(', ') || undefined],
  ];
  return rows.filter((row): row is [string, string] => row[1] !== undefined);
}

export function describeDiagnostic(diagnostic: Diagnostic): string {
  switch (diagnostic.kind) {
    case 'missing-parent':
      return `missing-parent: ${diagnostic.childUuid} names parent ${diagnostic.missingParentUuid}, which is not in the file`;
    case 'parent-cycle':
      return `parent-cycle: ${diagnostic.uuids.join(' → ')} → ${diagnostic.uuids[0] ?? ''}`;
    case 'conflicting-parent':
      return `conflicting-parent: ${diagnostic.uuid} is recorded with parents ${diagnostic.parentUuids.map(String).join(', ')}; the first wins`;
  }
}

export function describeReaderDiagnostic(diagnostic: ReaderDiagnostic): string {
  const at = `line ${diagnostic.line}`;
  switch (diagnostic.kind) {
    case 'malformed-line':
      return `${at}: malformed-line: ${diagnostic.message}`;
    case 'glued-objects':
      return `${at}: glued-objects: ${diagnostic.count} JSON objects on one line, all read`;
    case 'line-too-long':
      return `${at}: line-too-long: ${diagnostic.length} characters, skipped`;
    case 'invalid-record':
      return `${at}: invalid-record: ${diagnostic.reason}`;
    case 'unknown-record-type':
      return `${at}: unknown-record-type: ${JSON.stringify(diagnostic.recordType)} (first of its kind)`;
  }
}

export function describeCompaction(compaction: CompactionMark): string {
  const continues =
    compaction.logicalParentUuid === undefined
      ? ''
      : compaction.joined
        ? `, continues ${compaction.logicalParentUuid}`
        : `, continues ${compaction.logicalParentUuid}, which is not in the file`;
  const trigger = compaction.trigger === undefined ? '' : ` (${compaction.trigger})`;
  return `line ${compaction.line}: ${compaction.uuid}${trigger}${continues}`;
}

function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
