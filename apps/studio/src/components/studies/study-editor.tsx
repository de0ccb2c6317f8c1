'use client';
import { Loader2, Plus, Trash2 } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { STUDY_AGENT_TOOLS, type CreateStudy } from '@trellis/domain';
import { Button } from '@/components/ui/button';
import { Input, Textarea } from '@/components/ui/input';
import { PageHeader } from '@/components/ui/page-header';
import { studiesApi, studyKeys } from '@/lib/api/studies';
import { ErrorNote, describeError } from './study-error';

interface ConditionDraft {
  key: number;
  name: string;
  model: string;
  branching: boolean;
  weight: string;
  systemPrompt: string;
  tools: Set<string>;
}

let nextKey = 0;
function newCondition(model: string, name: string, branching: boolean): ConditionDraft {
  return {
    key: nextKey++,
    name,
    model,
    branching,
    weight: '1',
    systemPrompt: '',
    tools: new Set(STUDY_AGENT_TOOLS),
  };
}

/** A whole number from a field, or null when it is left empty. */
function minutes(value: string): number | null {
  return value.trim() === '' ? null : Number(value);
}

/**
 * The study editor (docs/studies.md): what participants read (consent, instructions), the workspace
 * each starts from, the conditions they are balanced over, the clock and the way out. Saving makes
 * a draft; the study's page then opens it and gives the link to hand out.
 */
export function StudyEditor({ email, models }: { email: string; models: readonly string[] }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const defaultModel = models[0] ?? 'offline';
  const [title, setTitle] = useState('');
  const [consent, setConsent] = useState('');
  const [instructions, setInstructions] = useState('');
  const [objective, setObjective] = useState('');
  const [docTitle, setDocTitle] = useState('Untitled');
  const [docContent, setDocContent] = useState('');
  const [conditions, setConditions] = useState<ConditionDraft[]>(() => [
    newCondition(defaultModel, 'branching', true),
  ]);
  const [timeLimit, setTimeLimit] = useState('');
  const [minMinutes, setMinMinutes] = useState('');
  const [code, setCode] = useState('');
  const [redirectUrl, setRedirectUrl] = useState('');
  const [error, setError] = useState<string | null>(null);

  const create = useMutation({
    mutationFn: (body: CreateStudy) => studiesApi.create(body),
    onSuccess: (created) => {
      void queryClient.invalidateQueries({ queryKey: studyKeys.list() });
      router.push(`/studies/${created.study_id}`);
    },
    onError: (e) => setError(describeError(e)),
  });

  const update = (key: number, patch: Partial<ConditionDraft>) =>
    setConditions((list) => list.map((c) => (c.key === key ? { ...c, ...patch } : c)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const completion = {
      ...(code.trim() === '' ? {} : { code: code.trim() }),
      ...(redirectUrl.trim() === '' ? {} : { redirect_url: redirectUrl.trim() }),
    };
    create.mutate({
      title,
      consent,
      instructions,
      seed: {
        objective: objective.trim() === '' ? null : objective,
        document: { title: docTitle, content: docContent },
        preferences: [],
        todos: [],
      },
      conditions: conditions.map((c) => ({
        name: c.name,
        model: c.model,
        branching: c.branching,
        weight: Number(c.weight),
        ...(c.systemPrompt.trim() === '' ? {} : { system_prompt: c.systemPrompt }),
        // Every tool kept is the default (null); a subset is sent as the list.
        ...(c.tools.size === STUDY_AGENT_TOOLS.length
          ? {}
          : { tools: STUDY_AGENT_TOOLS.filter((t) => c.tools.has(t)) }),
      })),
      time_limit_minutes: minutes(timeLimit),
      min_minutes: minutes(minMinutes),
      ...(Object.keys(completion).length === 0 ? {} : { completion }),
    });
  };

  return (
    <div className="min-h-full" data-testid="study-editor">
      <PageHeader section="New study" email={email} back={{ href: '/studies', label: 'Studies' }} />
      <main className="mx-auto max-w-3xl px-4 py-6 md:py-8">
        <h1 className="mb-1 text-xl font-semibold">New study</h1>
        <p className="mb-6 text-sm text-muted-foreground">
          Each participant gets a family of their own, started from the workspace below, under one of the
          conditions (balanced by weight). The study is saved as a draft; you open it on its page and hand out
          its link.
        </p>
        <form onSubmit={submit} className="space-y-6" noValidate>
          <Section title="What participants read">
            <Field label="Title" hint="shown on the consent page and as the family's title">
              {(id) => (
                <Input
                  id={id}
                  data-testid="study-title"
                  required
                  maxLength={200}
                  value={title}
                  onChange={(e) => setTitle(e.target.value)}
                />
              )}
            </Field>
            <Field label="Consent" hint="Markdown, shown before they agree">
              {(id) => (
                <Textarea
                  id={id}
                  data-testid="study-consent"
                  rows={5}
                  value={consent}
                  onChange={(e) => setConsent(e.target.value)}
                />
              )}
            </Field>
            <Field label="Instructions" hint="Markdown, shown in a panel of their studio">
              {(id) => (
                <Textarea
                  id={id}
                  data-testid="study-instructions"
                  rows={5}
                  value={instructions}
                  onChange={(e) => setInstructions(e.target.value)}
                />
              )}
            </Field>
          </Section>

          <Section title="The workspace every participant starts from">
            <Field label="Objective">
              {(id) => (
                <Input
                  id={id}
                  data-testid="study-objective"
                  maxLength={2000}
                  value={objective}
                  onChange={(e) => setObjective(e.target.value)}
                />
              )}
            </Field>
            <Field label="Document title">
              {(id) => (
                <Input
                  id={id}
                  data-testid="study-document-title"
                  maxLength={300}
                  value={docTitle}
                  onChange={(e) => setDocTitle(e.target.value)}
                />
              )}
            </Field>
            <Field label="Document" hint="Markdown">
              {(id) => (
                <Textarea
                  id={id}
                  data-testid="study-document"
                  rows={6}
                  value={docContent}
                  onChange={(e) => setDocContent(e.target.value)}
                />
              )}
            </Field>
          </Section>

          <Section title="Conditions">
            <ol className="space-y-4">
              {conditions.map((c, index) => (
                <li key={c.key}>
                  <ConditionFields
                    index={index}
                    condition={c}
                    models={models}
                    onChange={(patch) => update(c.key, patch)}
                    {...(conditions.length > 1
                      ? { onRemove: () => setConditions((list) => list.filter((x) => x.key !== c.key)) }
                      : {})}
                  />
                </li>
              ))}
            </ol>
            <Button
              type="button"
              variant="outline"
              size="sm"
              data-testid="add-condition"
              disabled={conditions.length >= 20}
              onClick={() =>
                setConditions((list) => [
                  ...list,
                  newCondition(defaultModel, `condition ${list.length + 1}`, false),
                ])
              }
            >
              <Plus aria-hidden /> Add a condition
            </Button>
          </Section>

          <Section title="Time and completion">
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Time limit (minutes)" hint="optional; writing stops after it">
                {(id) => (
                  <Input
                    id={id}
                    data-testid="study-time-limit"
                    type="number"
                    inputMode="numeric"
                    min={1}
                    value={timeLimit}
                    onChange={(e) => setTimeLimit(e.target.value)}
                  />
                )}
              </Field>
              <Field label="Minimum minutes before Finish" hint="optional">
                {(id) => (
                  <Input
                    id={id}
                    data-testid="study-min-minutes"
                    type="number"
                    inputMode="numeric"
                    min={1}
                    value={minMinutes}
                    onChange={(e) => setMinMinutes(e.target.value)}
                  />
                )}
              </Field>
              <Field label="Completion code" hint="shown when they finish">
                {(id) => (
                  <Input
                    id={id}
                    data-testid="study-completion-code"
                    maxLength={200}
                    value={code}
                    onChange={(e) => setCode(e.target.value)}
                  />
                )}
              </Field>
              <Field
                label="Redirect after Finish"
                hint="optional http(s) URL, e.g. the panel's completion page"
              >
                {(id) => (
                  <Input
                    id={id}
                    data-testid="study-redirect-url"
                    type="url"
                    value={redirectUrl}
                    onChange={(e) => setRedirectUrl(e.target.value)}
                  />
                )}
              </Field>
            </div>
          </Section>

          <ErrorNote message={error} testId="study-editor-error" />
          <div className="flex justify-end">
            <Button type="submit" data-testid="study-save" disabled={create.isPending}>
              {create.isPending && <Loader2 aria-hidden className="animate-spin" />} Save as draft
            </Button>
          </div>
        </form>
      </main>
    </div>
  );
}

function ConditionFields({
  index,
  condition,
  models,
  onChange,
  onRemove,
}: {
  index: number;
  condition: ConditionDraft;
  models: readonly string[];
  onChange: (patch: Partial<ConditionDraft>) => void;
  onRemove?: () => void;
}) {
  const id = useId();
  return (
    <fieldset
      className="space-y-3 rounded-md border p-3"
      data-testid="condition"
      aria-labelledby={`${id}-legend`}
    >
      <div className="flex items-center justify-between gap-2">
        <h3 id={`${id}-legend`} className="text-sm font-semibold">
          Condition {index + 1}
        </h3>
        {onRemove && (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            onClick={onRemove}
            aria-label={`Remove condition ${index + 1}`}
            data-testid="remove-condition"
          >
            <Trash2 aria-hidden /> Remove
          </Button>
        )}
      </div>
      <div className="grid gap-3 sm:grid-cols-[1fr_1fr_6rem]">
        <Field label="Name" hint="never shown to participants">
          {(fid) => (
            <Input
              id={fid}
              data-testid="condition-name"
              maxLength={200}
              value={condition.name}
              onChange={(e) => onChange({ name: e.target.value })}
            />
          )}
        </Field>
        <Field label="Model">
          {(fid) => (
            <select
              id={fid}
              data-testid="condition-model"
              value={condition.model}
              onChange={(e) => onChange({ model: e.target.value })}
              className="flex h-9 w-full rounded-md border border-input bg-background px-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              {models.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Weight">
          {(fid) => (
            <Input
              id={fid}
              data-testid="condition-weight"
              type="number"
              inputMode="numeric"
              min={1}
              max={100}
              value={condition.weight}
              onChange={(e) => onChange({ weight: e.target.value })}
            />
          )}
        </Field>
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          data-testid="condition-branching"
          checked={condition.branching}
          onChange={(e) => onChange({ branching: e.target.checked })}
          className="size-4"
        />
        Branching{' '}
        <span className="text-muted-foreground">
          (off: a linear studio — no continue from here, edit or regenerate)
        </span>
      </label>
      <Field label="System prompt" hint="optional; added to the agent's instructions on every turn">
        {(fid) => (
          <Textarea
            id={fid}
            data-testid="condition-system-prompt"
            rows={2}
            value={condition.systemPrompt}
            onChange={(e) => onChange({ systemPrompt: e.target.value })}
          />
        )}
      </Field>
      <fieldset>
        <legend className="mb-1 text-sm">The agent&apos;s tools in this condition</legend>
        <div className="grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-2">
          {STUDY_AGENT_TOOLS.map((tool) => (
            <label key={tool} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                className="size-4"
                data-testid={`condition-tool-${tool}`}
                checked={condition.tools.has(tool)}
                onChange={(e) => {
                  const tools = new Set(condition.tools);
                  if (e.target.checked) tools.add(tool);
                  else tools.delete(tool);
                  onChange({ tools });
                }}
              />
              <code className="text-xs">{tool}</code>
            </label>
          ))}
        </div>
      </fieldset>
    </fieldset>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="text-base font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Field({
  label,
  hint,
  children,
}: {
  label: string;
  hint?: string;
  children: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label} {hint && <span className="font-normal text-muted-foreground">({hint})</span>}
      </label>
      {children(id)}
    </div>
  );
}
