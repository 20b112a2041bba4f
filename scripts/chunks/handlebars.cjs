// The Handlebars chunk (dist/vendor/handlebars.js): loaded only to render PR titles and bodies.
module.exports = require('handlebars');
