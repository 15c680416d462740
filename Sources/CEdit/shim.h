/* libedit, made callable from Swift 6: el_set and history are variadic and
 * stdin/stdout/stderr are mutable C globals, so each use gets a static inline
 * wrapper with a fixed signature. Every wrapper is prefixed nc_edit_. */
#ifndef NC_EDIT_SHIM_H
#define NC_EDIT_SHIM_H

#include <errno.h>
#include <histedit.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

static inline FILE *nc_edit_stdout(void) { return stdout; }
static inline FILE *nc_edit_stderr(void) { return stderr; }

/* An editor on the standard streams, emacs key bindings, prompt from `prompt`. Signals are
 * not left to libedit (EL_SIGNAL): its handler passes each one on with kill(0, ...), to the
 * whole process group, so a parent in that group (make, a shell script) would get every
 * Ctrl-C twice, and a non-interactive bash can die of the second. See nc_edit_catch_signals. */
static inline EditLine *nc_edit_open(const char *program, char *(*prompt)(EditLine *)) {
    EditLine *editor = el_init(program, stdin, stdout, stderr);
    if (editor == NULL) return NULL;
    el_set(editor, EL_EDITOR, "emacs");
    el_set(editor, EL_PROMPT, prompt);
    return editor;
}

/* What the callbacks find through nc_edit_client. */
static inline void nc_edit_set_client(EditLine *editor, void *client) { el_set(editor, EL_CLIENTDATA, client); }

static inline void *nc_edit_client(EditLine *editor) {
    void *client = NULL;
    el_get(editor, EL_CLIENTDATA, &client);
    return client;
}

static inline void nc_edit_use_history(EditLine *editor, History *list) {
    el_set(editor, EL_HIST, history, list);
}

/* Reads ~/.editrc-style settings when the user has them. */
static inline void nc_edit_source_defaults(EditLine *editor) { el_source(editor, NULL); }

/* Binds `key` (e.g. "^I") to a new editor function `name`. */
static inline void nc_edit_bind(EditLine *editor, const char *name, const char *help,
                                unsigned char (*function)(EditLine *, int), const char *key) {
    el_set(editor, EL_ADDFN, name, help, function);
    el_set(editor, EL_BIND, key, name, NULL);
}

/* Draws the prompt and the line being edited again, from the cursor's line. */
static inline void nc_edit_redraw(EditLine *editor) { el_set(editor, EL_REFRESH); }

/* The terminal's width in columns (80 when it does not say). */
static inline int nc_edit_columns(EditLine *editor) {
    int columns = 0;
    if (el_get(editor, EL_GETTC, "co", &columns) != 0 || columns <= 0) return 80;
    return columns;
}

/* Sends `number` to `handler`, without SA_RESTART: a read it interrupts fails with EINTR. */
static inline int nc_edit_set_handler(int number, void (*handler)(int)) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_handler = handler;
    return sigaction(number, &action, NULL);
}

/* Ctrl-C. SIGINT's handler notes it (nc_edit_take_interrupt) and writes a byte to a
 * pipe, whose reader cancels the command in flight. The two variables are weak, not
 * static: a static one would be a separate copy in each Swift file that calls these. */
__attribute__((weak)) volatile sig_atomic_t nc_edit_interrupted = 0;
__attribute__((weak)) volatile sig_atomic_t nc_edit_interrupt_pipe = -1;

static inline void nc_edit_note_interrupt(int number) {
    (void)number;
    int saved = errno;
    nc_edit_interrupted = 1;
    char byte = 0;
    if (write(nc_edit_interrupt_pipe, &byte, 1) < 0) { /* full (it does not block): notes are waiting */ }
    errno = saved;
}

/* Sends SIGINT to nc_edit_note_interrupt, which writes to `pipe`; a negative `pipe`
 * restores the default (the process ends). */
static inline int nc_edit_catch_interrupts(int pipe) {
    nc_edit_interrupt_pipe = pipe;
    return nc_edit_set_handler(SIGINT, pipe < 0 ? SIG_DFL : nc_edit_note_interrupt);
}

/* Whether Ctrl-C was pressed since the last call. */
static inline int nc_edit_take_interrupt(void) {
    int interrupted = nc_edit_interrupted;
    nc_edit_interrupted = 0;
    return interrupted;
}

/* The other signals that matter while a line is edited: the terminal was resized, the
 * process continued (fg), Ctrl-Z was pressed, or the process is told to end. While a line
 * is edited nc_edit_note_signal notes each in nc_edit_noted, and the reader acts on it
 * outside the handler (nc_edit_handle_signals). */
#define NC_EDIT_SIGNAL_COUNT 5
static const int nc_edit_signal_numbers[NC_EDIT_SIGNAL_COUNT] = {SIGWINCH, SIGCONT, SIGTSTP, SIGTERM, SIGHUP};
__attribute__((weak)) volatile sig_atomic_t nc_edit_noted[NC_EDIT_SIGNAL_COUNT] = {0};

static inline void nc_edit_note_signal(int number) {
    for (int index = 0; index < NC_EDIT_SIGNAL_COUNT; index++)
        if (nc_edit_signal_numbers[index] == number) nc_edit_noted[index] = 1;
}

/* Whether `number` stops or ends the process (Ctrl-Z, SIGTERM, SIGHUP); the others only
 * ask for the line to be drawn again (a resize, fg). */
static inline int nc_edit_stops_or_ends(int number) {
    return number == SIGTSTP || number == SIGTERM || number == SIGHUP;
}

/* Whether a signal was noted that nc_edit_handle_signals has not acted on. */
static inline int nc_edit_signal_noted(void) {
    for (int index = 0; index < NC_EDIT_SIGNAL_COUNT; index++)
        if (nc_edit_noted[index]) return 1;
    return 0;
}

/* Keeps SIGINT and the editor's other signals away from the calling thread, so that
 * they reach the one reading the terminal. */
static inline void nc_edit_block_signals_here(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    for (int index = 0; index < NC_EDIT_SIGNAL_COUNT; index++) sigaddset(&set, nc_edit_signal_numbers[index]);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
}

/* Before a line is edited: the editor's signals go to nc_edit_note_signal. Returns the
 * bits (1 << index) of those caught: one the process ignores (a SIGTSTP that a parent
 * without job control ignores) stays ignored. */
static inline int nc_edit_catch_signals(void) {
    int caught = 0;
    for (int index = 0; index < NC_EDIT_SIGNAL_COUNT; index++) {
        struct sigaction current;
        int number = nc_edit_signal_numbers[index];
        nc_edit_noted[index] = 0;
        if (sigaction(number, NULL, &current) != 0 || current.sa_handler == SIG_IGN) continue;
        nc_edit_set_handler(number, nc_edit_note_signal);
        caught |= 1 << index;
    }
    return caught;
}

/* Sends the process, with its default action, each noted signal that stops or ends it:
 * Ctrl-Z stops it here until fg. With an `editor`, the terminal is given back as it was
 * before and taken again after (and the signal caught again). */
static inline void nc_edit_raise_noted(EditLine *editor) {
    for (int index = 0; index < NC_EDIT_SIGNAL_COUNT; index++) {
        int number = nc_edit_signal_numbers[index];
        if (!nc_edit_noted[index] || !nc_edit_stops_or_ends(number)) continue;
        nc_edit_noted[index] = 0;
        if (editor != NULL) el_set(editor, EL_PREP_TERM, 0);
        nc_edit_set_handler(number, SIG_DFL);
        kill(getpid(), number);
        if (editor == NULL) continue;
        nc_edit_set_handler(number, nc_edit_note_signal);
        el_set(editor, EL_PREP_TERM, 1);
    }
}

/* While a line is edited, on NC_EDIT_READ_AGAIN: acts on the noted signals, then takes
 * the terminal's size again (it may have changed). The caller draws the line again. */
static inline void nc_edit_handle_signals(EditLine *editor) {
    nc_edit_raise_noted(editor);
    for (int index = 0; index < NC_EDIT_SIGNAL_COUNT; index++)
        if (!nc_edit_stops_or_ends(nc_edit_signal_numbers[index])) nc_edit_noted[index] = 0;
    el_resize(editor);
}

/* After a line is read (the terminal is given back): the signals `caught` return to their
 * default actions, and one noted meanwhile that stops or ends the process does so now. */
static inline void nc_edit_release_signals(int caught) {
    for (int index = 0; index < NC_EDIT_SIGNAL_COUNT; index++)
        if (caught & (1 << index)) nc_edit_set_handler(nc_edit_signal_numbers[index], SIG_DFL);
    nc_edit_raise_noted(NULL);
}

/* What nc_edit_read_char read. */
#define NC_EDIT_READ_END 0            /* the end of input */
#define NC_EDIT_READ_CHARACTER 1      /* one character */
#define NC_EDIT_READ_INTERRUPTED (-1) /* Ctrl-C (or a failed read): give up the line */
#define NC_EDIT_READ_AGAIN (-2)       /* another signal: nc_edit_handle_signals, redraw, read again */

/* One character from standard input, decoded as the locale says (UTF-8), for an
 * EL_GETCFN function: libedit's own cannot be wrapped, and the workbench must know when
 * the editor is blocked waiting for a key. */
static inline int nc_edit_read_char(wchar_t *character) {
    char bytes[MB_LEN_MAX];
    size_t count = 0;
    for (;;) {
        if (nc_edit_interrupted) return NC_EDIT_READ_INTERRUPTED;
        if (nc_edit_signal_noted()) return NC_EDIT_READ_AGAIN;
        ssize_t got = read(STDIN_FILENO, bytes + count, 1);
        if (got == 0) return NC_EDIT_READ_END;
        if (got < 0) return errno == EINTR && !nc_edit_interrupted ? NC_EDIT_READ_AGAIN : NC_EDIT_READ_INTERRUPTED;
        count += 1;
        mbstate_t state;
        memset(&state, 0, sizeof state);
        size_t used = mbrtowc(character, bytes, count, &state);
        if (used == (size_t)-2 && count < MB_LEN_MAX) continue;   /* more bytes of this character */
        if (used == (size_t)-1 || used == (size_t)-2) {            /* not a character: drop it */
            count = 0;
            continue;
        }
        return NC_EDIT_READ_CHARACTER;
    }
}

/* Makes `reader` (which calls nc_edit_read_char) read the editor's keys. */
static inline void nc_edit_use_reader(EditLine *editor, int (*reader)(EditLine *, wchar_t *)) {
    el_set(editor, EL_GETCFN, reader);
}

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
