/**
 * An app's name, as rollgen.yaml's schema has it (`apps[].name`): a DNS label. App names become
 * branch names, file names and PR titles, and the Action puts them in argv, so nothing else passes.
 */
export const APP_NAME = /^(?=.{1,63}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export const isAppName = (name: string): boolean => APP_NAME.test(name);
