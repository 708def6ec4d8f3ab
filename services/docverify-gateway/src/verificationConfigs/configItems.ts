// A verification config may only name verifiers of its community that can do the array's kind.
import {
  CONFIG_ARRAYS,
  CONNECTOR_BY_TYPE,
  KINDS_BY_CONNECTOR,
  VERIFICATION_KINDS,
  type ConfigArray,
  type ConfigItem,
  type ConnectorType,
  type ValidationIssue,
  type VerificationKind,
} from '@idv/contracts';

export type ConfigArrays = Partial<Record<ConfigArray, ConfigItem[]>>;

export function pickArrays(body: Record<string, unknown>): ConfigArrays {
  const arrays: ConfigArrays = {};
  for (const name of CONFIG_ARRAYS) {
    const value = body[name];
    if (Array.isArray(value)) arrays[name] = value as ConfigItem[];
  }
  return arrays;
}

export function referencedTags(arrays: ConfigArrays): string[] {
  return [...new Set(Object.values(arrays).flatMap((items) => items.map((item) => item.verifier)))];
}

function serves(type: ConnectorType, array: ConfigArray): boolean {
  if ((VERIFICATION_KINDS as readonly string[]).includes(array)) {
    return KINDS_BY_CONNECTOR[type].includes(array as VerificationKind);
  }
  // the arrays that are no kind: each type's contract names those it may fill
  const arrays: readonly ConfigArray[] = CONNECTOR_BY_TYPE[type].configArrays ?? [];
  return arrays.includes(array);
}

/** One issue per item naming a missing verifier or one of a type that cannot do the kind. */
export function checkItems(
  arrays: ConfigArrays,
  typeByTag: Map<string, ConnectorType>,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const [array, items] of Object.entries(arrays) as [ConfigArray, ConfigItem[]][]) {
    items.forEach((item, index) => {
      const path = `/${array}/${index}/verifier`;
      const type = typeByTag.get(item.verifier);
      if (!type)
        issues.push({ path, message: `names no verifier of this community: ${item.verifier}` });
      else if (!serves(type, array))
        issues.push({ path, message: `verifier ${item.verifier} (${type}) cannot do ${array}` });
    });
  }
  return issues;
}
