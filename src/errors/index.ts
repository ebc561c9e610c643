export * from './catalogue.js';
export * from './translate.js';
export * from './render.js';
