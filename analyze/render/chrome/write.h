/* render/chrome/write.h — the Chrome trace writer's state and the pieces every event is
 * written with (render/chrome/write.c): separators, strings, an event's head, its arguments
 * from the scene's typed list. */
#ifndef TPROF_ANALYZE_CHROME_WRITE_H
#define TPROF_ANALYZE_CHROME_WRITE_H

#include "../../model/scene.h"
#include "../../util/jsonw.h"

struct chrome {
	char *path;
	struct json_writer w;
	int first;
	int failed;
	uint8_t *drawn;                 /* by Chrome pid: something was drawn in it */
	size_t ndrawn;
};

void chrome_sep(struct chrome *c);
void chrome_str(struct json_writer *w, const char *s);
void chrome_name(struct json_writer *w, uint32_t id);
/* {"ph":PH,"cat":CAT,"pid":..,"tid":..,"ts":TS — the caller goes on and closes the brace */
void chrome_head(struct chrome *c, struct track tr, const char *ph, const char *cat, int64_t ts);
/* ,"args":{...}} or } when there are none: closes the event. */
void chrome_args(struct json_writer *w, const struct scene_args *a);

#endif
