/* A small JSON reader for the calibration files (calibration.h): the whole
 * text parsed into a fixed table of nodes, strings unescaped in place.
 *
 * Small on purpose: it refuses, saying where, what an instructor's
 * few-kilobyte file never needs: more than JSON_MAX_NODES values, nesting
 * past JSON_MAX_DEPTH, \u escapes outside ASCII, a NUL byte, trailing
 * text. */
#ifndef JSON_READER_H
#define JSON_READER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { JSON_MAX_NODES = 4096, JSON_MAX_DEPTH = 16 };

typedef enum { JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING, JSON_ARRAY,
               JSON_OBJECT } json_type;

typedef struct {
    json_type type;
    const char *key;  /* the member's name, inside an object; else NULL */
    const char *text; /* a string's value */
    double number;
    int first_child;  /* index of the first element or member, -1 if none */
    int next;         /* index of the next sibling, -1 if none */
} json_node;

typedef struct {
    json_node nodes[JSON_MAX_NODES];
    int count;
} json_doc;

/* Parses `text` (len bytes, modified in place: strings are unescaped into
 * it and end in NUL). 0 and doc->nodes[0] the root; -1 with a message in
 * err (what is wrong and at which byte). */
int json_parse(char *text, size_t len, json_doc *doc, char *err, size_t err_size);

/* The member `key` of an object node, or NULL (also when obj is not an object). */
const json_node *json_member(const json_doc *doc, const json_node *obj, const char *key);
/* The node after `node` among its siblings, and the first child, or NULL. */
const json_node *json_next(const json_doc *doc, const json_node *node);
const json_node *json_first(const json_doc *doc, const json_node *node);

#ifdef __cplusplus
}
#endif

#endif
