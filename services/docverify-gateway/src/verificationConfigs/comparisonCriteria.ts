// The data comparison settings a config may store (spec 2.1 dataComparisonAttributes): the dob
// check offers only eq and has no middle names; an eq criterion carries no minMatchScore.
import type { ValidationIssue, VerificationSettings } from '@idv/contracts';

type Attribute = NonNullable<VerificationSettings['dataComparisonAttributes']>[number];

/** The fuzzyMatch score when none is given (spec 8). */
export const DEFAULT_MIN_MATCH_SCORE = 85;

/** Each member a dob check may not have, with its path below `prefix`. */
export function comparisonIssues(
  settings: VerificationSettings | undefined,
  prefix = '/settings',
): ValidationIssue[] {
  return (settings?.dataComparisonAttributes ?? []).flatMap((attribute, i) => {
    if (attribute.module !== 'dob check') return [];
    const at = `${prefix}/dataComparisonAttributes/${i}/criteria`;
    const issues: ValidationIssue[] = [];
    if (attribute.criteria.value !== 'eq')
      issues.push({ path: `${at}/value`, message: 'the dob check offers only eq' });
    if (attribute.criteria.ignoreMiddleNames !== undefined)
      issues.push({ path: `${at}/ignoreMiddleNames`, message: 'is for name checks only' });
    return issues;
  });
}

/** The settings as stored: minMatchScore only where fuzzyMatch uses it. */
export function withoutUnusedScores<S extends VerificationSettings | undefined>(settings: S): S {
  if (!settings?.dataComparisonAttributes) return settings;
  const attributes = settings.dataComparisonAttributes.map((attribute): Attribute => {
    if (attribute.criteria.value === 'fuzzyMatch') return attribute;
    const { minMatchScore: _dropped, ...criteria } = attribute.criteria;
    return { ...attribute, criteria };
  });
  return { ...settings, dataComparisonAttributes: attributes };
}
