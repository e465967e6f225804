#ifndef COMPOSABLE_REPLAY_CLIBEDIT_SHIM_H
#define COMPOSABLE_REPLAY_CLIBEDIT_SHIM_H

#include <histedit.h>
#include <stdio.h>

// el_set and history are C-variadic, which Swift cannot call: one wrapper per call we need.

static inline int replay_el_set_prompt(EditLine *el, char *(*prompt)(EditLine *)) {
  return el_set(el, EL_PROMPT, prompt);
}

static inline int replay_el_set_editor(EditLine *el, const char *mode) {
  return el_set(el, EL_EDITOR, mode);
}

static inline int replay_el_set_history(EditLine *el, History *history) {
  return el_set(el, EL_HIST, history, history);
}

static inline int replay_el_set_signal(EditLine *el, int handle) {
  return el_set(el, EL_SIGNAL, handle);
}

static inline int replay_el_add_function(EditLine *el, const char *name, const char *help,
                                         unsigned char (*function)(EditLine *, int)) {
  return el_set(el, EL_ADDFN, name, help, function);
}

static inline int replay_el_bind(EditLine *el, const char *key, const char *function) {
  return el_set(el, EL_BIND, key, function, NULL);
}

static inline int replay_history_set_size(History *h, HistEvent *event, int size) {
  return history(h, event, H_SETSIZE, size);
}

static inline int replay_history_set_unique(History *h, HistEvent *event, int unique) {
  return history(h, event, H_SETUNIQUE, unique);
}

static inline int replay_history_enter(History *h, HistEvent *event, const char *line) {
  return history(h, event, H_ENTER, line);
}

static inline int replay_history_load(History *h, HistEvent *event, const char *path) {
  return history(h, event, H_LOAD, path);
}

static inline int replay_history_save(History *h, HistEvent *event, const char *path) {
  return history(h, event, H_SAVE, path);
}

#endif
