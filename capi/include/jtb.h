/* jtb.h: C ABI of the jungle-tablebase probe library.
 *
 * Link with libjtb_capi.a (plus -lpthread -ldl -lm) or libjtb_capi.so.
 * Every function returns JTB_OK (0) or an error code; after an error, jtb_last_error() gives a
 * message for the calling thread. No Rust panic crosses this boundary (JTB_ERR_INTERNAL).
 * A jtb_tablebase may be used from many threads at once.
 */
#ifndef JTB_H
#define JTB_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct jtb_tablebase jtb_tablebase;

enum jtb_status {
    JTB_OK = 0,
    JTB_ERR_ARGUMENT = 1,        /* a null pointer, bad UTF-8, unknown rule set, small buffer */
    JTB_ERR_POSITION = 2,        /* malformed position text */
    JTB_ERR_GAME_OVER = 3,       /* a side has no piece left */
    JTB_ERR_NOT_COVERED = 4,     /* more pieces than the tables cover, a missing table, or a
                                    table without the file asked (a WDL-only set asked DTM) */
    JTB_ERR_WRONG_RULES = 5,     /* position of another rule set, a table file of another, or a
                                    value the rule set lacks (clesto: DTM of ban values, DTC;
                                    animal-gambit: DTC) */
    JTB_ERR_TABLE = 6,           /* unreadable, truncated or corrupted table file */
    JTB_ERR_DIRECTORY = 7,       /* the table directory cannot be read */
    JTB_ERR_INTERNAL = 8         /* a bug: please report */
};

enum jtb_wdl { JTB_LOSS = -1, JTB_DRAW = 0, JTB_WIN = 1 };

/* Where a position stands under the clock rule at clock 0. */
enum jtb_category {
    JTB_CATEGORY_LOSS = -2,
    JTB_CATEGORY_BLESSED_LOSS = -1, /* a loss without the clock, drawn by it */
    JTB_CATEGORY_DRAW = 0,
    JTB_CATEGORY_CURSED_WIN = 1,    /* a win without the clock, drawn by it */
    JTB_CATEGORY_WIN = 2
};

/* Clesto's categories (it has no draws). */
enum jtb_clesto_category {
    JTB_CLESTO_LOSS = -2,
    JTB_CLESTO_BAN_LOSS = -1,       /* lost only by the repetition ban */
    JTB_CLESTO_BAN_WIN = 1,         /* won only by the repetition ban */
    JTB_CLESTO_WIN = 2
};

/* Opens the tables of rule set `rules` ("mistboard", "tiger-lengthwise", "leiden", "flip4x4",
 * "clesto", "animal-gambit") under `root` (files in root/<rules>/). */
int jtb_open(const char *root, const char *rules, jtb_tablebase **out);

/* Closes a tablebase (NULL is allowed). */
void jtb_close(jtb_tablebase *tb);

/* Win (1), draw (0) or loss (-1) for the side to move. */
int jtb_probe_wdl(const jtb_tablebase *tb, const char *position, int *wdl);

/* Value and distance to mate in plies (0 for a draw); Animal Gambit's in turns (0 where the
 * repetition rule decides). */
int jtb_probe_dtm(const jtb_tablebase *tb, const char *position, int *wdl, int *dtm);

/* Clesto (RULES.md 6): *wdl win (1) or loss (-1), never a draw; *dtm the distance to mate of a
 * plain value, -1 where the repetition ban decides; *category one of enum jtb_clesto_category;
 * *exit the plies until the banned side forces the game into a smaller material at a position
 * it wins, when the ban decides and the banned side wins, -1 otherwise. Other tables:
 * JTB_ERR_WRONG_RULES. jtb_probe_dtm and the clock-rule functions give JTB_ERR_WRONG_RULES for
 * Clesto tables; jtb_probe_wdl and jtb_best_move serve them. */
int jtb_probe_clesto(const jtb_tablebase *tb, const char *position,
                     int *wdl, int *dtm, int *category, int *exit);

/* The best move as text ("b3b7"), NUL-terminated, into buf of len bytes (at least 5); an empty
 * string when the side to move has no move. Animal Gambit: the best turn in its canonical text
 * ("Re2n Re3n Re4e Rf4n", up to 4 steps and their removals: 64 bytes are enough). */
int jtb_best_move(const jtb_tablebase *tb, const char *position, char *buf, size_t len);

/* The value under the clock rule (drawn after 100 half-moves without a capture in Jungle, 40 in
 * the flip game) at a half-move clock: clock < 0 takes the clock from the position text (0
 * without one); a clock above the limit is JTB_ERR_POSITION. *wdl is the rule value at that
 * clock for the side to move, *dtc the distance to the next capture or the end of the game in
 * plies (-1 when none can be forced), *category one of enum jtb_category. */
int jtb_probe_rule(const jtb_tablebase *tb, const char *position, int clock,
                   int *wdl, int *dtc, int *category);

/* The best move under the clock rule at a clock (as for jtb_probe_rule) as text, like
 * jtb_best_move; an empty string when the side to move has no move or the clock has run out. */
int jtb_rule_best_move(const jtb_tablebase *tb, const char *position, int clock,
                       char *buf, size_t len);

/* Whether the position is decided at its clock (clock < 0 takes the clock from the position
 * text): *dead_draw is 1 when neither side can force a win before the clock runs out, else 0.
 * The text is read under the rule set of tb where it is on that rule set's board, else (and
 * with tb NULL) as its board says: 9 ranks mistboard, 4 ranks flip4x4.
 * One-animal-each flip positions use the built-in check and need no tables (tb may be NULL);
 * Jungle positions and flip positions of more animals use the tables' clock rule. *wdl and *dtm
 * give the value without the clock for the side to move when known (*known = 1), else
 * *known = 0 (a one-each flip position judged without tables). A position the tables do not
 * cover (a missing table, more pieces than they hold, tb NULL where tables are needed) is
 * JTB_ERR_NOT_COVERED in every game, never "play on"; face-down tiles are JTB_ERR_NOT_COVERED
 * too; a finished game JTB_ERR_GAME_OVER.
 * Clesto positions, with Clesto's tables (tb opened on "clesto"): never a dead draw (Clesto has
 * no draws); *known = 1 for a plain win or loss, 0 where the repetition ban decides (see
 * jtb_probe_clesto).
 * Animal Gambit positions, with its tables (tb opened on "animal-gambit"): no clock (clock >= 0
 * is JTB_ERR_POSITION) and never a dead draw; *known = 1 for a forced win or loss (*dtm in
 * turns), 0 where the repetition rule decides. */
int jtb_adjudicate(const jtb_tablebase *tb, const char *position, int clock,
                   int *dead_draw, int *known, int *wdl, int *dtm);

/* Animal Gambit (RULES.md 7) through a handle of its own kind too: a jtb_gambit, opened with
 * jtb_gambit_open, whose probe also gives the category. Distances count turns. A jtb_tablebase
 * opened on "animal-gambit" answers jtb_probe_wdl, jtb_probe_dtm, jtb_best_move and
 * jtb_adjudicate; the clock-rule and Clesto functions give JTB_ERR_WRONG_RULES. */
typedef struct jtb_gambit jtb_gambit;

/* What an Animal Gambit value means: a draw is a game neither side can force to an end,
 * decided by the repetition rule with the history the table does not see. */
enum jtb_gambit_category { JTB_GAMBIT_LOSS = -1, JTB_GAMBIT_REPETITION = 0, JTB_GAMBIT_WIN = 1 };

/* Opens the Animal Gambit tables under `root` (files in root/animal-gambit/). */
int jtb_gambit_open(const char *root, jtb_gambit **out);

/* Closes Animal Gambit tables (NULL is allowed). */
void jtb_gambit_close(jtb_gambit *tb);

/* Win (1), draw (0) or loss (-1) for the side to move, the distance to mate in turns (-1 for a
 * draw), and *category one of enum jtb_gambit_category. */
int jtb_gambit_probe(const jtb_gambit *tb, const char *position, int *wdl, int *dtm,
                     int *category);

/* The best turn in its canonical text ("Re2n Re3n Re4e Rf4n"), NUL-terminated, into buf of len
 * bytes (40 always suffice); an empty string when the side to move has no turn. */
int jtb_gambit_best_turn(const jtb_gambit *tb, const char *position, char *buf, size_t len);

/* The flip game with face-down tiles (RULES.md 8) has chance tables: a jtb_chance, opened with
 * jtb_chance_open over the flip game's tables (root/flip4x4/, the chance tables beside the
 * revealed ones). A flip is a chance event; values are exact fractions. */
typedef struct jtb_chance jtb_chance;

/* The value of a flip position for the side to move: the score (expected result: win 1, draw
 * 1/2, loss 0) and the probabilities of a win, a draw and a loss, each a numerator over
 * `denominator` (the smallest that holds them all; at most 240). */
typedef struct jtb_chance_value {
    int score;
    int win;
    int draw;
    int loss;
    int denominator;
} jtb_chance_value;

/* Opens the flip game's tables under `root` (files in root/flip4x4/). */
int jtb_chance_open(const char *root, jtb_chance **out);

/* Closes chance tables (NULL is allowed). */
void jtb_chance_close(jtb_chance *tb);

/* The exact value of a flip position, with or without face-down tiles (a position without is a
 * certain result from the revealed tables' clock rule), at a clock (clock < 0 takes the clock
 * of the text, 0 without one; 40 is a draw). A face-down position needs its hidden set (the
 * `?:` field) unless nothing was captured: else JTB_ERR_NOT_COVERED. */
int jtb_chance_probe(const jtb_chance *tb, const char *position, int clock,
                     jtb_chance_value *value);

/* The DTE of a flip position at a clock (RULES.md 8): where its score is 1 or 0, the plies
 * within which the side sure to win ends the game whatever the flips show, into *dte; -1 where
 * the score is neither (or the result is a certain draw), and at clock 40. */
int jtb_chance_dte(const jtb_chance *tb, const char *position, int clock, int *dte);

/* The best move at a clock (highest score; then in a certain win the smallest DTE, in a
 * certain loss the largest, otherwise the highest chance of a win; then the smallest text: a
 * flip "?a4" before a step "a1a2"), NUL-terminated, into buf of len bytes (at least 5); an
 * empty string at clock 40. */
int jtb_chance_best_move(const jtb_chance *tb, const char *position, int clock,
                         char *buf, size_t len);

/* The message of the last error of the calling thread ("" if none). Valid until the next call
 * on this thread. */
const char *jtb_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* JTB_H */
