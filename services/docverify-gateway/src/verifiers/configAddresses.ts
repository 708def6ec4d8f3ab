// Where a verifier's requests go (connectorUrl and the address members of its config), and the
// rule that stored secrets never follow a changed address: masked secrets then do not count.
import { CONFIG_MEMBER_ROLES, type ConnectorType } from '@idv/contracts';
import { SECRET_MASK } from '@idv/contracts';

export interface Place {
  /** JSON pointer below the config, e.g. /accounts/0/url */
  pointer: string;
  value: unknown;
}

/** Every present member a role path names in `config` ('accounts/*\/url': each account's url). */
export function placesOf(config: unknown, path: string): Place[] {
  let places: Place[] = [{ pointer: '', value: config }];
  for (const segment of path.split('/')) {
    places = places.flatMap(({ pointer, value }): Place[] => {
      if (segment === '*') {
        return Array.isArray(value)
          ? value.map((item, i) => ({ pointer: `${pointer}/${i}`, value: item }))
          : [];
      }
      if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
      const member = (value as Record<string, unknown>)[segment];
      return member === undefined ? [] : [{ pointer: `${pointer}/${segment}`, value: member }];
    });
  }
  return places;
}

function addressesOf(type: ConnectorType, config: unknown): Map<string, unknown> {
  const places = CONFIG_MEMBER_ROLES[type].addresses.flatMap((path) => placesOf(config, path));
  return new Map(places.map((p) => [p.pointer, p.value]));
}

/**
 * The address members that differ between the stored config and a new one: changed, added or
 * removed (a removed one hands its requests to connectorUrl; reordered accounts move their keys).
 */
export function changedAddresses(type: ConnectorType, stored: unknown, given: unknown): string[] {
  const before = addressesOf(type, stored);
  const after = addressesOf(type, given);
  const pointers = new Set([...before.keys(), ...after.keys()]);
  return [...pointers].filter((pointer) => before.get(pointer) !== after.get(pointer)).sort();
}

/** The secret members of `config` that hold the mask instead of a secret. */
export function maskedSecrets(type: ConnectorType, config: unknown): string[] {
  return CONFIG_MEMBER_ROLES[type].secrets
    .flatMap((path) => placesOf(config, path))
    .filter((place) => place.value === SECRET_MASK)
    .map((place) => place.pointer);
}
