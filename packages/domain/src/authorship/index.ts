export * from './types';
export * from './units';
export * from './spans';
export * from './advance';
export * from './summary';
export * from './render';
export * from './report';
export * from './attribution';
