export * from './invitations';
export * from './members';
