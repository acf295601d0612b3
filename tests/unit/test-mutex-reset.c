/* test-mutex-reset.c — tprof_mutex_reset (preload/core/core.h), what the recorder's fork
 * handlers do with its locks in the child: a lock held at the fork (by a thread the child does
 * not have) is usable again, and one as PTHREAD_MUTEX_INITIALIZER made it is left unwritten. */
#include <pthread.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../preload/core/core.h"
#include "tap.h"

static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t used = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;

static void *hold(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&held);
	return NULL;   /* exits holding it, as a thread of the parent may at a fork */
}

/* In a child: 0 when each lock can be taken after the reset and `fresh` kept its bytes. */
static int child(void)
{
	pthread_mutex_t before;
	memcpy(&before, &fresh, sizeof(before));
	tprof_mutex_reset(&held);
	tprof_mutex_reset(&used);
	tprof_mutex_reset(&fresh);
	int rc = 0;
	if (memcmp(&before, &fresh, sizeof(before)))
		rc |= 8;
	if (pthread_mutex_trylock(&held) != 0)
		rc |= 1;
	if (pthread_mutex_trylock(&used) != 0)
		rc |= 2;
	if (pthread_mutex_trylock(&fresh) != 0)
		rc |= 4;
	return rc;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, hold, NULL);
	pthread_join(t, NULL);
	pthread_mutex_lock(&used);
	pthread_mutex_unlock(&used);
	ok(pthread_mutex_trylock(&held) != 0, "the parent's lock is held by a thread that is gone");
	pid_t pid = fork();
	if (pid == 0)
		_exit(child());
	int st = 0;
	waitpid(pid, &st, 0);
	int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 255;
	ok(!(rc & 1), "the child can take a lock held at the fork once it is reset");
	ok(!(rc & 2), "the child can take a lock taken and given back before the fork");
	ok(!(rc & 4), "the child can take a lock never taken");
	ok(!(rc & 8), "a lock as PTHREAD_MUTEX_INITIALIZER made it is left as it is");
	return tap_done();
}
