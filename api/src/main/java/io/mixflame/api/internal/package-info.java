/**
 * Not API: where the mixflame agent hands this copy of the API its label recorder, through the bootstrap bridge.
 * Without an agent the recorder stays absent and the API's calls do nothing.
 */
package io.mixflame.api.internal;
