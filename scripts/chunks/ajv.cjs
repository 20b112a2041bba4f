// ajv's compiler (dist/vendor/ajv.js): loaded only for options schemas of generators registered at run time.
module.exports = require('ajv');
