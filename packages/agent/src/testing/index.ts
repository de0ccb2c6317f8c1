// Test support for packages that drive the agent (services' tests): an
// in-memory workspace port, a model that follows a script (e.g. to attempt
// changes to a locked preference) and a helper that runs a turn to its end.
export { drain, tokensOf } from './drain';
export { startFakeProvider, type FakeProviderServer, type FakeReply } from './fake-provider-server';
export { createInMemoryWorkspace, type InMemoryWorkspace } from './in-memory-workspace';
export { ScriptedChatModel, type ScriptStep } from './scripted-model';
