export { renderDamdfe, type DamdfeDados, type DamdfeOptions } from './render';
