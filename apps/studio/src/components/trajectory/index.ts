export { TrajectoryPanel, type TrajectoryPanelProps } from './trajectory-panel';
