export * from './catalogue.js';
export * from './translate.js';
