// Jest counterpart of esbuild's text loader: a bundled text file (a .hbs template) is a module exporting its content.
module.exports = {
  process(source) {
    return { code: `module.exports = { __esModule: true, default: ${JSON.stringify(source)} };` };
  },
};
