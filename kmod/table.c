// SPDX-License-Identifier: GPL-2.0
/*
 * The table of managed nodes, below everything that reads it: the clearing
 * paths look a node up locklessly once per clear, the layers above walk
 * it. Only node.c publishes into it, under clearpage_lock, and only a node
 * complete (or NULL, once no backend can reach it).
 */
#include <linux/compiler.h>
#include <linux/nodemask.h>

#include "clearpage.h"

/*
 * The managed nodes, by node id: published here once complete, read
 * locklessly by the clearing paths.
 */
static struct clearpage_node *clearpage_nodes[MAX_NUMNODES];

void clearpage_node_publish(int nid, struct clearpage_node *node)
{
	WRITE_ONCE(clearpage_nodes[nid], node);
}

struct clearpage_node *clearpage_node_get(int nid)
{
	if (nid < 0 || nid >= MAX_NUMNODES)
		return NULL;
	return READ_ONCE(clearpage_nodes[nid]);
}

/* The next managed node after @nid, or MAX_NUMNODES. */
int clearpage_next_node(int nid, struct clearpage_node **node)
{
	for (nid++; nid < MAX_NUMNODES; nid++) {
		*node = clearpage_node_get(nid);
		if (*node)
			break;
	}
	return nid;
}
