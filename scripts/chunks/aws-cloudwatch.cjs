// The AWS CloudWatch client (dist/vendor/aws-cloudwatch.js): loaded only by a CloudWatch measurement.
module.exports = require('@aws-sdk/client-cloudwatch');
