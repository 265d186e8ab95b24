export { deliveryWorkflow } from './delivery';
export { runWorkflow } from './run';
export { notifyIssue } from './notify';
