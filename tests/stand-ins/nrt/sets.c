/* sets.c — tensor sets: a name -> tensor map a model execution takes its inputs and outputs
 * from.  A set holds no reference: freeing a tensor leaves a stale entry, which an execution
 * then reports.  Every call is under sn_lock. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

nrt_tensor_t *sn_set_find(const struct sn_set *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->e[i].name, name))
			return s->e[i].tensor;
	return NULL;
}

SN_EXPORT NRT_STATUS nrt_allocate_tensor_set(nrt_tensor_set_t **result)
{
	if (!result)
		return NRT_INVALID;
	pthread_mutex_lock(&sn_lock);
	NRT_STATUS rc = sn_ready();
	struct sn_set *s = rc == NRT_SUCCESS ? calloc(1, sizeof(*s)) : NULL;
	if (rc == NRT_SUCCESS && (!s || sn_handle_add(s, SN_SET) < 0)) {
		free(s);
		s = NULL;
		rc = NRT_RESOURCE;
	}
	if (s)
		*result = s;
	pthread_mutex_unlock(&sn_lock);
	return rc;
}

SN_EXPORT void nrt_destroy_tensor_set(nrt_tensor_set_t **tensor_set)
{
	if (!tensor_set)
		return;
	pthread_mutex_lock(&sn_lock);
	struct sn_set *s = *tensor_set;
	if (sn_handle_is(s, SN_SET)) {
		for (size_t i = 0; i < s->n; i++)
			free(s->e[i].name);
		free(s->e);
		sn_handle_del(s);
		free(s);
		*tensor_set = NULL;
	}
	pthread_mutex_unlock(&sn_lock);
}

SN_EXPORT NRT_STATUS nrt_add_tensor_to_tensor_set(nrt_tensor_set_t *tensor_set, const char *tensor_name,
						  nrt_tensor_t *tensor)
{
	struct sn_set *s = tensor_set;
	if (!tensor_name || !*tensor_name)
		return sn_fail(NRT_INVALID, "nrt_add_tensor_to_tensor_set: no name");
	pthread_mutex_lock(&sn_lock);
	NRT_STATUS rc = sn_ready();
	if (rc == NRT_SUCCESS && !sn_handle_is(s, SN_SET))
		rc = sn_fail(NRT_INVALID_HANDLE, "nrt_add_tensor_to_tensor_set: %p is no set", (void *)s);
	else if (rc == NRT_SUCCESS && !sn_handle_is(tensor, SN_TENSOR))
		rc = sn_fail(NRT_INVALID_HANDLE, "nrt_add_tensor_to_tensor_set: %p is no tensor",
			     (void *)tensor);
	size_t i = 0;
	for (; rc == NRT_SUCCESS && i < s->n; i++)
		if (!strcmp(s->e[i].name, tensor_name))
			break;
	if (rc == NRT_SUCCESS && i == s->n) {
		/* A new name. */
		if (s->n == s->cap) {
			size_t ncap = s->cap ? s->cap * 2 : 8;
			struct sn_set_entry *ne = realloc(s->e, ncap * sizeof(*ne));
			if (!ne)
				rc = NRT_RESOURCE;
			else {
				s->e = ne;
				s->cap = ncap;
			}
		}
		if (rc == NRT_SUCCESS && !(s->e[i].name = strdup(tensor_name)))
			rc = NRT_RESOURCE;
		if (rc == NRT_SUCCESS)
			s->n++;
	}
	if (rc == NRT_SUCCESS)
		s->e[i].tensor = tensor;
	pthread_mutex_unlock(&sn_lock);
	return rc;
}

SN_EXPORT NRT_STATUS nrt_get_tensor_from_tensor_set(nrt_tensor_set_t *tensor_set, const char *tensor_name,
						    nrt_tensor_t **tensor)
{
	struct sn_set *s = tensor_set;
	if (!tensor_name || !tensor)
		return NRT_INVALID;
	pthread_mutex_lock(&sn_lock);
	NRT_STATUS rc = sn_ready();
	if (rc == NRT_SUCCESS && !sn_handle_is(s, SN_SET))
		rc = sn_fail(NRT_INVALID_HANDLE, "nrt_get_tensor_from_tensor_set: %p is no set", (void *)s);
	nrt_tensor_t *t = rc == NRT_SUCCESS ? sn_set_find(s, tensor_name) : NULL;
	if (rc == NRT_SUCCESS && !t)
		rc = NRT_FAILURE;    /* as the real runtime answers for a name not in the set */
	if (t)
		*tensor = t;
	pthread_mutex_unlock(&sn_lock);
	return rc;
}
