export { TrajectoryPanel, type TrajectoryPanelProps } from './trajectory-panel';
export { RenamePathProvider } from './lane-name';
