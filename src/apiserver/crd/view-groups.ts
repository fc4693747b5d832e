/**
 * Δ-controller view groups (`<operator>.view.dcontroller.io`). FlowOps stores views as objects of a
 * CRD per view kind, but they are not custom resources in Δ-controller: its view server keeps them
 * in memory and takes any name a pipeline produces (`test-service-1-TCP-80`) and a status written
 * with the object. So these groups are served with Δ-controller's rules, not a CRD's.
 */
export const VIEW_GROUP_SUFFIX = 'view.dcontroller.io';

export const isViewGroup = (group: string): boolean =>
  group === VIEW_GROUP_SUFFIX || group.endsWith(`.${VIEW_GROUP_SUFFIX}`);
