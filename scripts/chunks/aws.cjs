// The AWS chunk (dist/vendor/aws.js): the CloudWatch client, the SigV4 signer with the SDK's
// credential chain for Amazon Managed Prometheus (and the provider that assumes a sigv4 roleArn),
// and the Elastic Load Balancing v2 client of the verify.aws gates. Loaded only by a CloudWatch or a
// signed Prometheus measurement or a verification; one chunk, so the SDK's shared core is there once.
// The two clients share a few export names ($Command, __Client, ResourceNotFoundException, schema
// entries): CloudWatch's are kept as before; rollgen requires only each client and its commands,
// whose names are distinct. Of the credential providers only fromTemporaryCredentials (STS
// AssumeRole, through the SDK's STS client the credential chain already brings).
module.exports = {
  ...require('@aws-sdk/client-elastic-load-balancing-v2'),
  ...require('@aws-sdk/client-cloudwatch'),
  ...require('@smithy/signature-v4'),
  ...require('@aws-sdk/credential-provider-node'),
  fromTemporaryCredentials: require('@aws-sdk/credential-providers').fromTemporaryCredentials,
};
