// The Octokit chunk (dist/vendor/octokit.js): loaded only by commands that talk to GitHub.
export { Octokit } from '@octokit/rest';
export { retry } from '@octokit/plugin-retry';
export { throttling } from '@octokit/plugin-throttling';
