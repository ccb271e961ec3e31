#include "core/bundle/choice.h"

#include <stdlib.h>
#include <string.h>

void dispatch_choice_release(dispatch_choice *c)
{
	free(c->dir);
	free(c->id);
	free(c->tag);
	free(c->why);
	jv_free(c->candidates);
	memset(c, 0, sizeof *c);
}
