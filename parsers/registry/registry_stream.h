/* SPDX-License-Identifier: Apache-2.0 */
/*
 * registry_stream.h: one blob GET read as a stream of bytes, never held whole.
 *
 * gl_http_stream_open() starts a GET of url on a curl handle of its own, in a thread of
 * its own (so that several layers stream at once, and the caller reads with the pull
 * interface every image reader uses, image_source.h). The transfer hands its bytes over
 * through two buffers of GL_STREAM_BUF bytes: while the reader works on one, curl fills
 * the other, and waits while both are full; memory is those two buffers and curl's own,
 * whatever the blob's size. Only a 200 reply's body is handed out; any other status, a
 * transport error, or a transfer that receives nothing for the timeout while the reader
 * waits (a stalled server: a layer of gigabytes has no total timeout) makes the source fail,
 * and gl_http_stream_close() says why. The url is the one a preflight request resolved
 * (registry_input.c: auth challenges answered, redirects followed); `authorization` is
 * sent as given (NULL: none), never printed. TLS as the request's (registry_http.h).
 */
#ifndef GPULINT_REGISTRY_STREAM_H
#define GPULINT_REGISTRY_STREAM_H

#include "parsers/image/image_source.h"
#include "parsers/registry/registry_http.h"

#define GL_STREAM_BUF (256 * 1024)

struct gl_http_stream;

/* NULL with *why when the transfer cannot start (no libcurl, no thread). */
struct gl_http_stream *gl_http_stream_open(const struct gl_http *h, const char *url,
                                           const char *authorization, const char **why);
/* The body, as a source that cannot skip. */
struct gl_byte_src gl_http_stream_src(struct gl_http_stream *s);
/* Stop the transfer (if the reader stopped early), wait for it, free it. The reason it
 * failed, into why[n] ("" when it did not). */
void gl_http_stream_close(struct gl_http_stream *s, char *why, size_t n);

#endif
