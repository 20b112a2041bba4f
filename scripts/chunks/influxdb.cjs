// InfluxData's client (dist/vendor/influxdb.js): loaded only by an InfluxDB measurement.
module.exports = require('@influxdata/influxdb-client');
