/* libedit, made callable from Swift 6: el_set and history are variadic and
 * stdin/stdout/stderr are mutable C globals, so each use gets a static inline
 * wrapper with a fixed signature. Every wrapper is prefixed nc_edit_. */
#ifndef NC_EDIT_SHIM_H
#define NC_EDIT_SHIM_H

#include <histedit.h>
#include <stdio.h>
#include <unistd.h>

static inline FILE *nc_edit_stdin(void) { return stdin; }
static inline FILE *nc_edit_stdout(void) { return stdout; }
static inline FILE *nc_edit_stderr(void) { return stderr; }

/* An editor on the standard streams, emacs key bindings, prompt from `prompt`. */
static inline EditLine *nc_edit_open(const char *program, char *(*prompt)(EditLine *)) {
    EditLine *editor = el_init(program, stdin, stdout, stderr);
    if (editor == NULL) return NULL;
    el_set(editor, EL_EDITOR, "emacs");
    el_set(editor, EL_PROMPT, prompt);
    el_set(editor, EL_SIGNAL, 1);
    return editor;
}

static inline void nc_edit_use_history(EditLine *editor, History *list) {
    el_set(editor, EL_HIST, history, list);
}

/* Reads ~/.editrc-style settings when the user has them. */
static inline void nc_edit_source_defaults(EditLine *editor) { el_source(editor, NULL); }

static inline History *nc_history_open(int size) {
    HistEvent event;
    History *list = history_init();
    if (list == NULL) return NULL;
    history(list, &event, H_SETSIZE, size);
    history(list, &event, H_SETUNIQUE, 1);
    return list;
}

static inline void nc_history_add(History *list, const char *line) {
    HistEvent event;
    history(list, &event, H_ENTER, line);
}

static inline int nc_history_load(History *list, const char *path) {
    HistEvent event;
    return history(list, &event, H_LOAD, path);
}

static inline int nc_history_save(History *list, const char *path) {
    HistEvent event;
    return history(list, &event, H_SAVE, path);
}

#endif
