// The oauth schema's migration set.
import type { MigrationSet } from '@idv/db';
import * as initial from '../migrations/001_oauth.ts';
import * as partialModelIndexes from '../migrations/002_partial_model_indexes.ts';
import * as signIn from '../migrations/003_sign_in.ts';
import * as operators from '../migrations/004_operators.ts';
import * as eamHintOnce from '../migrations/005_eam_hint_once.ts';

export const oauthMigrations: MigrationSet = {
  schema: 'oauth',
  migrations: {
    '001_oauth': initial,
    '002_partial_model_indexes': partialModelIndexes,
    '003_sign_in': signIn,
    '004_operators': operators,
    '005_eam_hint_once': eamHintOnce,
  },
};
