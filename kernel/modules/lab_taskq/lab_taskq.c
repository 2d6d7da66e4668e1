// SPDX-License-Identifier: GPL-2.0
/*
 * lab_taskq - what OpenZFS's task queues do, in a dozen lines: open a file by
 * its path from a work item (a kworker). On 7.3 that breaks ZFS (vdev open,
 * the cachefile, /etc/hostid: openzfs/zfs#19044): the kworker sits in the
 * kernel threads' nullfs, and filp_open() answers ENOENT. Built out of tree
 * (make M=) against a lab kernel and loaded by the init's taskq_module test:
 *
 *   stock: the kworker shares init_task's root, which PID 1 moved: result=0
 *   full:  ENOENT (result=-2), and the sentinel (CONFIG_DEBUG_KTHREAD_NULLFS_LOOKUP)
 *          names the call: "nullfs-sentinel: kworker/...  walked "/etc/lab-root"
 *          ... caller lab_taskq_open+0x..."
 *
 * The fix for a module like this one is scoped_with_init_fs() around the open
 * (or, better, a file handed in from userspace).
 */
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/workqueue.h>

static char *path = "/etc/lab-root";
module_param(path, charp, 0444);
MODULE_PARM_DESC(path, "the file the work item opens");

static int result = 1;
module_param(result, int, 0444);
MODULE_PARM_DESC(result, "0: the work item opened the file; else -errno");

static void lab_taskq_open(struct work_struct *work)
{
	struct file *file = filp_open(path, O_RDONLY, 0);

	if (IS_ERR(file)) {
		result = PTR_ERR(file);
		return;
	}
	result = 0;
	filp_close(file, NULL);
}

static DECLARE_WORK(lab_taskq_work, lab_taskq_open);

static int __init lab_taskq_init(void)
{
	struct workqueue_struct *wq = alloc_workqueue("lab_taskq", WQ_UNBOUND, 1);

	if (!wq)
		return -ENOMEM;
	queue_work(wq, &lab_taskq_work);
	destroy_workqueue(wq);	/* drains it: the work item has run */
	pr_info("lab_taskq: filp_open(\"%s\") from a kworker of lab_taskq: %d\n",
		path, result);
	return 0;
}

static void __exit lab_taskq_exit(void)
{
}

module_init(lab_taskq_init);
module_exit(lab_taskq_exit);
MODULE_DESCRIPTION("nullfs-lab: filp_open() from a workqueue, as OpenZFS's taskq does");
MODULE_LICENSE("GPL");
