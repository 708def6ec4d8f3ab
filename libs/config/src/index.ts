// Public surface of libs/config.
export { ConfigError, defineConfig, describeConfig, loadConfig } from './loadConfig.ts';
export { PlatformConfig, platformConfigFields } from './platformConfig.ts';
export { resolveMasterKey, type MasterKey, type MasterKeySettings } from './masterKey.ts';
