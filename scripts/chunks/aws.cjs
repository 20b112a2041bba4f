// The AWS chunk (dist/vendor/aws.js): the CloudWatch client, and the SigV4 signer with the SDK's
// credential chain for Amazon Managed Prometheus. Loaded only by a CloudWatch or a signed Prometheus
// measurement; one chunk, so the SDK's shared core is there once.
module.exports = {
  ...require('@aws-sdk/client-cloudwatch'),
  ...require('@smithy/signature-v4'),
  ...require('@aws-sdk/credential-provider-node'),
};
