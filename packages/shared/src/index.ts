export * from './money.ts';
export * from './errors.ts';
export * from './pagination.ts';
export * from './auth/roles.ts';
export * from './auth/auth.schemas.ts';
