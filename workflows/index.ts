export { deliveryWorkflow } from './delivery';
export { runWorkflow } from './run';
