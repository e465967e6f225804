#ifndef COMPOSABLE_REPLAY_CLIBEDIT_SHIM_H
#define COMPOSABLE_REPLAY_CLIBEDIT_SHIM_H

#include <histedit.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>

// el_set and history are C-variadic, which Swift cannot call: one wrapper per call we need.

static inline int replay_el_set_prompt(EditLine *el, char *(*prompt)(EditLine *)) {
  return el_set(el, EL_PROMPT, prompt);
}

static inline int replay_el_set_editor(EditLine *el, const char *mode) {
  return el_set(el, EL_EDITOR, mode);
}

static inline int replay_el_set_history(EditLine *el, History *list) {
  return el_set(el, EL_HIST, history, list);
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

// Edit-mode terminal settings, such as "-isig" so that Ctrl-C reaches a key binding.
static inline int replay_el_setty(EditLine *el, const char *setting) {
  return el_set(el, EL_SETTY, "-d", setting, NULL);
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

// Ctrl-C while a command runs: the handler only raises a flag that long work polls, so a search
// stops where it is and the REPL goes on.

static volatile sig_atomic_t replay_interrupt_flag = 0;

static inline void replay_interrupt_handler(int signal_number) {
  (void)signal_number;
  replay_interrupt_flag = 1;
}

static inline int replay_install_interrupt_handler(void) {
  struct sigaction action;
  action.sa_handler = replay_interrupt_handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  if (sigaction(SIGINT, &action, NULL) != 0) return -1;
  // A parent may have left SIGINT blocked, and a blocked signal never reaches the handler.
  sigset_t interrupt;
  sigemptyset(&interrupt);
  sigaddset(&interrupt, SIGINT);
  return pthread_sigmask(SIG_UNBLOCK, &interrupt, NULL);
}

// Whether Ctrl-C was pressed since the last call; clears the flag.
static inline int replay_take_interrupt(void) {
  int raised = replay_interrupt_flag;
  replay_interrupt_flag = 0;
  return raised;
}

#endif
