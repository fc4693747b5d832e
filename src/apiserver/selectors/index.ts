export { SelectorError } from './errors.js';
export type { LabelOperator, LabelRequirement, LabelSelector, LabelSelectorObject } from './labels.js';
export { labelSelectorFromMatch, labelSelectorToString, matchesLabels, parseLabelSelector } from './labels.js';
export type { FieldRequirement, FieldSelector } from './fields.js';
export { fieldSelectorExactMatch, fieldSelectorFields, matchesFields, parseFieldSelector } from './fields.js';
