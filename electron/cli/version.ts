export { appVersion as version } from '../engine/app-version';
