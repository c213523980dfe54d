// SPDX-License-Identifier: LGPL-2.1
/*
 * GpuJobs.cpp - KernelShark plugin gpu_jobs, drawing side.
 *
 * Three kinds of graphs get shapes:
 *  - ring rows (Task graphs whose id is a ring's synthetic id, gpu_rings.h), at two
 *    levels of detail. Zoomed out (most visible jobs narrower than a few pixels) the
 *    row is a busy profile: per pixel column the share of time the ring executed.
 *    Zoomed in every job is a box split into scheduler wait (queue -> run), hardware
 *    queue (run -> start) and execution (start -> done), colored by the submitting
 *    process, stacked into sub-rows when jobs overlap (at most as many as stay
 *    readable, "+N" for the rest), labelled "comm-pid ctx:seqno" when wide enough,
 *    with an arrow from the done of each dependency the job really waited on (it
 *    signaled after the queue) to the job's run, drawn above the boxes and thinned
 *    out when too dense; the menu "GPU jobs" shows every dependency instead;
 *  - CPU graphs: a strip per job stage on the CPU whose event began it, and connectors
 *    from the queue event's CPU to the run event's CPU to the done/signal CPU;
 *  - Task graphs of submitting processes: the job's life as a thin three-segment strip;
 *  - CRTC rows (Task graphs of a CRTC's synthetic id): vblank ticks and judged frames
 *    (gpu_frames.c, lib/frames.c).
 * Double-click on a job sets marker A at its queue event and B at its done event.
 * Hovering a job shows its tooltip (gpu_describe.c): an event filter on KernelShark's
 * GL widget hit-tests the boxes drawn in the last frame.
 *
 * KernelShark calls the draw handler once per graph and frees the shapes before the
 * next frame. Shapes that join two graphs are drawn in the call of whichever graph
 * comes later in the frame, using the position of the earlier one (kept per stream).
 * No C++ exception crosses into C.
 */

// C++
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <iostream>
#include <map>
#include <string>
#include <vector>

// Qt: the main window (markers, menu), the hover tooltip
#include <QAction>
#include <QApplication>
#include <QEvent>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPointer>
#include <QWidget>
#include <set>

// KernelShark
#include "libkshark.h"
#include "libkshark-plugin.h"
#include "libkshark-model.h"
#include "KsPlotTools.hpp"
#include "KsPlugins.hpp"
#include "KsPluginsGUI.hpp"
#include "KsCmakeDef.hpp"

#include "gpu_jobs.h"
#include "gpu_rings.h"

using namespace KsPlot;

namespace {

/* Stage shading: share of the process color (the rest is white). */
const float gpujobWaitAlpha = 0.30;
const float gpujobHwqAlpha = 0.60;

/* Jobs narrower than this (pixels) are not drawn on CPU graphs: zoomed out they would bury the CPU data. */
const int gpujobCpuMinJobPx = 24;

/* A stacked sub-row is at least this high (pixels): labels stay readable. */
const int gpujobMinSubrowPx = 12;

/* Zoomed out: a row is a busy profile when most of its visible jobs are narrower. */
const int gpujobBoxMinPx = 4;

/* Dependency arrows: at most one per this many pixels of the waiting job's run. */
const int gpujobDepMinGapPx = 8;

/* CRTC rows: vblank ticks need this many pixels between them, else only late frames. */
const int gpujobVblankMinPx = 4;

/* CRTC rows: an on-time frame is a block this wide ending at its vblank. */
const int gpujobOnTimePx = 3;

/* CRTC rows: a late frame due this long before the window can still reach into it. */
const uint64_t gpujobFrameLookBackNs = 1000000000ULL;

/* the "+N" mark of a capped ring row: the tooltip's colors */
const Color gpujobMarkFill(255, 255, 224);
const int gpujobMarkInsetPx = 20;
const Color gpujobMarkBorder(128, 128, 128);

const Color gpujobVblankColor(90, 90, 90);
const Color gpujobLateColor(220, 20, 60);
const Color gpujobOnTimeColor(40, 170, 60);

/* Dependency arrows: dark, above the boxes. */
const Color gpujobDepColor(20, 20, 20);

/* Show every dependency, not only those waited on, unculled (menu, GPU_JOBS_ALL_DEPS). */
bool gpujobAllDeps = getenv("GPU_JOBS_ALL_DEPS") && *getenv("GPU_JOBS_ALL_DEPS") == '1';

Color processColor(const plugin_gpujob *job)
{
	const unsigned char *c = plugin_gpujob_palette[job->color % GPUJOB_PALETTE_SIZE];

	return Color(c[0], c[1], c[2]);
}

Color tint(Color c, float alpha)
{
	c.blend(alpha);
	return c;
}

/* Where a graph was drawn in the current frame. */
struct GraphPos {
	int	base;
	int	height;
	int depth; /* ring rows: sub-rows shown in this frame; -1: busy profile */
};

} // namespace

/* Per-stream drawing state (struct plugin_gpujob_ctx::draw). */
struct gpujob_draw_state {
	ksplot_font				font;		/* labels */
	ksplot_font				smallFont;	/* labels in stacked rows */
	bool					fontTried = false;
	bool					fontOk = false;
	bool					smallFontOk = false;
	/* graphs seen in the current frame: (draw action, id) -> position */
	std::map<std::pair<int, int>, GraphPos>	seen;
	/* an invisible shape of ours in the current frame's list */
	const PlotObject			*token = nullptr;
	/* the stream's context */
	plugin_gpujob_ctx *ctx = nullptr;
	/* job boxes of the current frame, for the hover tooltip */
	struct Hit {
		int x0, y0, x1, y1;
		size_t job;
	};
	std::vector<Hit> hits;
	/* "+N" marks of capped ring rows in the current frame, with their tooltip text */
	struct Mark {
		int x0, y0, x1, y1;
		std::string text;
	};
	std::vector<Mark> marks;
	/* last element of the frame's shape list (pushTop), valid when haveTail */
	PlotObjList::iterator tail;
	bool haveTail = false;
	/* consumer x buckets of the dependency arrows drawn in the current frame */
	std::set<std::pair<int, int>> depCells;
};

namespace
{
/* every stream's drawing state, for the tooltip's hit test */
std::set<gpujob_draw_state *> gpujobStates;
} // namespace

void plugin_gpujob_draw_free(struct gpujob_draw_state *st)
{
	/* the font texture belongs to the GL context; KernelShark tears that down */
	gpujobStates.erase(st);
	delete st;
}

namespace {

/* Invisible; marks that the shape list still belongs to the frame we know. */
class FrameToken : public PlotObject {
public:
	FrameToken() { _visible = false; }
private:
	void _draw(const Color &, float) const override {}
};

void *mainWindow()
{
	for (QWidget *w : QApplication::topLevelWidgets())
		if (w->inherits("KsMainWindow"))
			return w;
	return nullptr;
}

/* A job box: double-click sets A at the queue event and B at the done event. */
class JobBox : public Rectangle {
public:
	const kshark_entry	*_a = nullptr;
	const kshark_entry	*_b = nullptr;

	double distance(int x, int y) const override
	{
		if (x < pointX(0) - 1 || x > pointX(2) + 1 ||
		    y < pointY(1) || y > pointY(0))
			return std::numeric_limits<double>::max();
		return 0;
	}

private:
	void _doubleClick() const override
	{
		void *ks = mainWindow();

		if (!ks || !_a || !_b)
			return;
		markEntryB(ks, _b);
		markEntryA(ks, _a);
	}
};

class JobLabel : public PlotObject {
public:
	const ksplot_font	*_font = nullptr;
	std::string		_text;
	int			_x = 0;
	int			_y = 0;

private:
	void _draw(const Color &col, float) const override
	{
		if (_font && !_text.empty())
			ksplot_print_text(_font, col.color_c_ptr(), _x, _y, _text.c_str());
	}
};

/* Time -> pixel for one graph, from its bins (one bin is one pixel, times DPR). */
struct XMap {
	double	x0 = 0, scale = 0;
	int64_t	min = 0;
	int	left = 0, right = 0;
	uint64_t t0 = 0, t1 = 0;

	bool init(const kshark_trace_histo *histo, const Graph *graph)
	{
		int n = histo->n_bins;

		if (n < 2 || histo->bin_size <= 0 || graph->size() < n)
			return false;
		x0 = graph->bin(0)._base.x();
		double xn = graph->bin(n - 1)._base.x();
		scale = (xn - x0) / ((double)(n - 1) * histo->bin_size);
		min = histo->min;
		left = x0;
		right = xn;
		t0 = histo->min < 0 ? 0 : histo->min;
		t1 = histo->max < 0 ? 0 : histo->max;
		return true;
	}

	/* x of @ts, not clamped to the view */
	double xf(uint64_t ts) const
	{
		return x0 + ((double)ts - (double)min) * scale;
	}

	int x(uint64_t ts) const
	{
		return std::max((double)left - 3, std::min((double)right + 3, xf(ts)));
	}
};

struct DrawCtx {
	KsCppArgV		*argv;
	plugin_gpujob_ctx	*ctx;
	gpujob_draw_state	*st;
	XMap			xm;
	int			base;
	int			height;
};

void push(DrawCtx &d, PlotObject *o)
{
	d.argv->_shapes->push_front(o);
}

/*
 * KernelShark paints the list from its front: what is pushed to the front is painted
 * first, under the rest. Arrows and the "+N" marks go to the end, so they are painted
 * last, above the boxes of every row (including rows drawn before this one).
 */
void pushTop(DrawCtx &d, PlotObject *o)
{
	PlotObjList *l = d.argv->_shapes;

	if (!d.st->haveTail) {
		auto it = l->before_begin();
		for (auto n = l->begin(); n != l->end(); ++n)
			it = n;
		d.st->tail = it;
		d.st->haveTail = true;
	}
	d.st->tail = l->insert_after(d.st->tail, o);
}

Rectangle *rect(int x0, int y0, int x1, int y1, const Color &c, bool fill, float size = 1)
{
	Rectangle *r = new Rectangle;

	r->setFill(fill);
	r->setPoint(0, x0, y1);
	r->setPoint(1, x0, y0);
	r->setPoint(2, x1, y0);
	r->setPoint(3, x1, y1);
	r->_color = c;
	r->_size = size;
	return r;
}

void line(DrawCtx &d, int xa, int ya, int xb, int yb, const Color &c, float size)
{
	Line *l = new Line(Point(xa, ya), Point(xb, yb));

	l->_color = c;
	l->_size = size;
	push(d, l);
}

const kshark_entry *firstEntry(const plugin_gpujob *job)
{
	for (int s = 0; s < GPUJOB_NSTAGES; ++s)
		if (job->entry[s])
			return job->entry[s];
	return nullptr;
}

const kshark_entry *doneEntry(const plugin_gpujob *job)
{
	if (job->entry[GPULAT_ST_DONE])
		return job->entry[GPULAT_ST_DONE];
	for (int s = GPUJOB_NSTAGES - 1; s >= 0; --s)
		if (job->entry[s])
			return job->entry[s];
	return nullptr;
}

bool has(uint64_t ts)
{
	return ts != GPULAT_NONE;
}

/* The three segments of a job: [b[0], b[1]) wait, [b[1], b[2]) hw queue, [b[2], b[3]) exec. */
void jobBounds(const plugin_gpujob *job, uint64_t b[4])
{
	uint64_t q = job->ts[GPULAT_ST_QUEUE], r = job->ts[GPULAT_ST_RUN];
	uint64_t s = job->start_ts, dn = job->ts[GPULAT_ST_DONE];

	if (!has(dn))
		dn = job->end;
	if (!has(r))
		r = has(s) ? s : (has(q) ? q : job->begin);	/* pre-5.7: no run event */
	if (!has(q))
		q = r;
	if (!has(s) || s < r)
		s = r;
	if (s > dn)
		s = dn;
	b[0] = q;
	b[1] = std::max(q, r);
	b[2] = std::max(b[1], s);
	b[3] = std::max(b[2], dn);
}

/*
 * One job as a three-segment box between y0 (top) and y1 (bottom). Returns false when
 * it was too narrow and drawn as a one-pixel line (then *lastX is updated).
 */
void drawJobBox(DrawCtx &d, size_t j, int y0, int y1, bool label, int *lastX)
{
	const plugin_gpujob *job = &d.ctx->jobs[j];
	Color pc = processColor(job);
	uint64_t b[4];
	int x[4];

	jobBounds(job, b);
	for (int i = 0; i < 4; ++i)
		x[i] = d.xm.x(b[i]);

	if (x[3] - x[0] < 2) {
		/* too narrow: one column of the process color, once per column */
		if (lastX && *lastX == x[0])
			return;
		if (lastX)
			*lastX = x[0];
		push(d, rect(x[0], y0, x[0] + 1, y1, pc, true));
		d.st->hits.push_back({ x[0] - 1, y0, x[0] + 1, y1, j });
		return;
	}
	d.st->hits.push_back({ x[0], y0, x[3], y1, j });

	/* push order = reverse paint order: label, outline, then the fills */
	const ksplot_font *font = nullptr;
	if (d.st->fontOk && y1 - y0 + 1 >= d.st->font.height - 2)
		font = &d.st->font;
	else if (d.st->smallFontOk && y1 - y0 + 1 >= d.st->smallFont.height - 3)
		font = &d.st->smallFont;
	if (label && font) {
		std::string text = job->comm ? job->comm : "?";
		char buf[64];

		text += "-" + std::to_string(job->pid);
		if (has(job->ctx) && has(job->seqno)) {
			snprintf(buf, sizeof(buf), " %llu:%llu",
				 (unsigned long long)job->ctx,
				 (unsigned long long)job->seqno);
			text += buf;
		}
		int room = x[3] - x[0] - 4;
		size_t fit = font->char_width > 0 ? room / font->char_width : 0;
		if (fit < text.size()) {
			/* drop the fence, then cut the name */
			size_t sp = text.find(' ');
			if (sp != std::string::npos && sp <= fit)
				text.resize(sp);
			else if (fit >= 4)
				text = text.substr(0, fit - 1) + "~";
			else
				text.clear();
		}
		if (!text.empty()) {
			JobLabel *l = new JobLabel;

			l->_font = font;
			l->_text = text;
			l->_x = std::max(x[0], d.xm.left) + 3;
			l->_y = y1 - (y1 - y0 + 1 - font->height) / 2 - (font->height - font->size) - 1;
			l->_color = Color(0, 0, 0);
			push(d, l);
		}
	}

	JobBox *box = new JobBox;
	box->setFill(false);
	box->setPoint(0, x[0], y1);
	box->setPoint(1, x[0], y0);
	box->setPoint(2, x[3], y0);
	box->setPoint(3, x[3], y1);
	box->_color = Color(40, 40, 40);
	box->_size = 1;
	box->_a = firstEntry(job);
	box->_b = doneEntry(job);
	push(d, box);

	if (x[3] > x[2])
		push(d, rect(x[2], y0, x[3], y1, pc, true));
	if (x[2] > x[1])
		push(d, rect(x[1], y0, x[2], y1, tint(pc, gpujobHwqAlpha), true));
	if (x[1] > x[0])
		push(d, rect(x[0], y0, x[1], y1, tint(pc, gpujobWaitAlpha), true));
}

/* Sub-rows that fit a row of @height with each at least gpujobMinSubrowPx high. */
int subrowCap(int height)
{
	return std::max(1, (height - 3) / gpujobMinSubrowPx);
}

/*
 * Vertical band of a job's sub-row inside a ring row: the row is shared by the sub-rows
 * visible in this frame (@depth), at most subrowCap() of them; deeper jobs share the
 * last one (the row says "+N").
 */
void subrowBand(int depth, int subrow, int base, int height, int *y0, int *y1)
{
	int n = std::max(1, std::min(depth, subrowCap(height)));
	int h = std::max(2, (height - 3) / n);

	subrow = std::min(subrow, n - 1);
	*y1 = base - 1 - subrow * h;
	*y0 = *y1 - h + 1;
}

int subrowMid(const plugin_gpujob *job, const GraphPos &pos)
{
	int y0, y1;

	subrowBand(pos.depth, job->subrow, pos.base, pos.height, &y0, &y1);
	return (y0 + y1) / 2;
}

/* An arrow head at (x, y) pointing away from (fx, fy). */
void arrowHead(DrawCtx &d, int fx, int fy, int x, int y, const Color &c)
{
	double dx = x - fx, dy = y - fy, n = std::sqrt(dx * dx + dy * dy);
	Triangle *t;

	if (n < 1)
		return;
	dx /= n;
	dy /= n;
	t = new Triangle;
	t->setPoint(0, x, y);
	t->setPoint(1, x - 7 * dx + 3.5 * dy, y - 7 * dy - 3.5 * dx);
	t->setPoint(2, x - 7 * dx - 3.5 * dy, y - 7 * dy + 3.5 * dx);
	t->setFill(true);
	t->_color = c;
	/* push_back: painted after every box of the frame, i.e. above them */
	pushTop(d, t);
}

/* Dependency lines from producer (done) to consumer (run), both ring rows known. */
void drawDepsBetween(DrawCtx &d, ssize_t consumerRing, const GraphPos &cpos,
		     ssize_t producerRing, const GraphPos &ppos)
{
	const gpujob_index *idx = &d.ctx->ring_idx[consumerRing];

	/* zoomed out (busy profiles): no arrows */
	if (!idx->n || cpos.depth < 0 || ppos.depth < 0)
		return;

	for (size_t i = plugin_gpujob_index_first(idx, d.xm.t0);
	     i < idx->n && idx->it[i].begin <= d.xm.t1; ++i) {
		const plugin_gpujob *job = &d.ctx->jobs[idx->it[i].job];

		if (idx->it[i].end < d.xm.t0)
			continue;
		for (uint32_t k = 0; k < job->n_deps; ++k) {
			const plugin_gpujob_dep *dep = &d.ctx->deps[job->dep_first + k];

			/* a fence already signaled at queue time cost nothing: no line */
			if (dep->producer < 0 || (!dep->waited && !gpujobAllDeps))
				continue;
			const plugin_gpujob *p = &d.ctx->jobs[dep->producer];
			if (p->ring_idx != producerRing)
				continue;

			uint64_t pend = has(p->ts[GPULAT_ST_DONE]) ? p->ts[GPULAT_ST_DONE] : p->end;
			uint64_t b[4];

			jobBounds(job, b);
			double fa = d.xm.xf(pend), fb = d.xm.xf(b[1]);
			double lo = d.xm.left - 3, hi = d.xm.right + 3;
			int ya = subrowMid(p, ppos);
			int yb = subrowMid(job, cpos);

			/*
			 * Clipped to the view, not each end clamped: a line whose ends
			 * both lie left (or right) of the view is not drawn (clamped,
			 * it was a vertical stroke with an arrowhead at the edge), one
			 * leaving the view keeps its slope and gets no head.
			 */
			if (std::max(fa, fb) < lo || std::min(fa, fb) > hi)
				continue;
			bool head = fb >= lo && fb <= hi;
			double ca = std::max(lo, std::min(hi, fa));
			double cb = std::max(lo, std::min(hi, fb));
			double ka = fb != fa ? (ca - fa) / (fb - fa) : 0;
			double kb = fb != fa ? (cb - fa) / (fb - fa) : 1;
			int xa = (int)ca, xb = (int)cb;
			int yca = (int)std::lround(ya + ka * (yb - ya));
			int ycb = (int)std::lround(ya + kb * (yb - ya));

			/* too dense: one arrow per few pixels of waiting runs per row pair */
			if (!gpujobAllDeps &&
			    !d.st->depCells.insert({ xb / gpujobDepMinGapPx, ycb }).second)
				continue;
			Line *l = new Line(Point(xa, yca), Point(xb, ycb));
			l->_color = gpujobDepColor;
			l->_size = 1.5;
			pushTop(d, l);
			if (head)
				arrowHead(d, xa, yca, xb, ycb, gpujobDepColor);
		}
	}
}

/* Width of @text in @font (the baked glyphs' advances; 'z' for others). */
int textWidth(const ksplot_font *font, const std::string &text)
{
	float w = 0;

	for (unsigned char ch : text) {
		if (ch >= KS_SPACE_CHAR && ch < KS_SPACE_CHAR + KS_N_CHAR)
			w += font->cdata[ch - KS_SPACE_CHAR].xadvance;
		else
			w += font->char_width;
	}
	return (int)std::ceil(w);
}

/*
 * The "+N" mark of a ring row whose jobs stack deeper (@depth) than its sub-rows (@cap):
 * the N deepest share the top sub-row. A plate at the row's right end in the top
 * sub-row, painted above the boxes, with the label font when the sub-row is high
 * enough for it (it is at gpujobMinSubrowPx = 12 px and KernelShark's default row
 * height: 10 pt, 12 px); hovering it says what it means.
 */
void drawCapMark(DrawCtx &d, ssize_t r, int depth, int cap)
{
	const ksplot_font *font = nullptr;
	std::string text = "+" + std::to_string(depth - cap);
	int y0, y1;

	subrowBand(depth, cap - 1, d.base, d.height, &y0, &y1);
	if (d.st->fontOk && y1 - y0 + 1 >= d.st->font.height - 2)
		font = &d.st->font;
	else if (d.st->smallFontOk)
		font = &d.st->smallFont;
	if (!font)
		return;
	/* inset: KernelShark's vertical scroll bar, when it shows, covers the right end */
	int x1 = d.xm.right - gpujobMarkInsetPx, x0 = x1 - textWidth(font, text) - 8;

	pushTop(d, rect(x0, y0, x1, y1, gpujobMarkFill, true));
	pushTop(d, rect(x0, y0, x1, y1, gpujobMarkBorder, false));
	JobLabel *l = new JobLabel;
	l->_font = font;
	l->_text = text;
	l->_x = x0 + 4;
	l->_y = y1 - (y1 - y0 + 1 - font->height) / 2 - (font->height - font->size) - 1;
	l->_color = Color(0, 0, 0);
	pushTop(d, l);

	char buf[256];
	snprintf(buf, sizeof(buf),
		 "%s: jobs stack %d deep in this view, %d sub-rows fit the row:\n"
		 "+%d: the top sub-row also holds the %d deeper ones (zoom in to separate them)",
		 d.ctx->rings[r].label, depth, cap, depth - cap, depth - cap);
	d.st->marks.push_back({ x0, y0, x1, y1, buf });
}

/* Zoomed out: per pixel column, the share of its time the ring executed. */
void drawBusyProfile(DrawCtx &d, const gpujob_index *idx)
{
	int ncols = std::max(0, d.xm.right - d.xm.left + 1);
	double nsPerPx = d.xm.scale > 0 ? 1.0 / d.xm.scale : 0;
	std::vector<double> busy(ncols, 0.0);
	std::vector<int> colJob(ncols, -1);

	if (nsPerPx <= 0 || !ncols)
		return;
	for (size_t i = plugin_gpujob_index_first(idx, d.xm.t0);
	     i < idx->n && idx->it[i].begin <= d.xm.t1; ++i) {
		const plugin_gpujob *job = &d.ctx->jobs[idx->it[i].job];
		uint64_t b[4];

		if (idx->it[i].end < d.xm.t0)
			continue;
		jobBounds(job, b);
		/* spread the execution [start, done] over the columns it covers */
		double t = b[2], te = b[3];
		while (t <= te) {
			double colx = d.xm.x0 + (t - (double)d.xm.min) * d.xm.scale;
			int c = (int)colx - d.xm.left;
			double colEnd = (double)d.xm.min +
					((double)(c + d.xm.left + 1) - d.xm.x0) / d.xm.scale;

			if (c >= 0 && c < ncols) {
				busy[c] += std::min(te, colEnd) - t;
				colJob[c] = idx->it[i].job;
			}
			if (colEnd <= t || te <= t)
				break;
			t = colEnd;
		}
	}

	int rowTop = d.base - d.height + 3, rowBottom = d.base - 1;
	for (int c = 0; c < ncols; ++c) {
		if (colJob[c] < 0)
			continue;
		double frac = std::min(1.0, busy[c] / nsPerPx);
		int h = std::max(2, (int)(frac * (rowBottom - rowTop + 1) + 0.5));

		push(d, rect(d.xm.left + c, rowBottom - h + 1, d.xm.left + c + 1, rowBottom,
			     processColor(&d.ctx->jobs[colJob[c]]), true));
	}
}

void drawRing(DrawCtx &d, ssize_t r)
{
	const gpujob_index *idx = &d.ctx->ring_idx[r];
	size_t visible = 0, narrow = 0;
	int depth = 1, y0, y1;

	d.argv->_graph->setLabelText(d.ctx->rings[r].label);

	/* level of detail: what the visible jobs look like at this zoom */
	for (size_t i = idx->n ? plugin_gpujob_index_first(idx, d.xm.t0) : 0;
	     i < idx->n && idx->it[i].begin <= d.xm.t1; ++i) {
		const plugin_gpujob *job = &d.ctx->jobs[idx->it[i].job];
		uint64_t b[4];

		if (idx->it[i].end < d.xm.t0)
			continue;
		jobBounds(job, b);
		visible++;
		if (d.xm.x(b[3]) - d.xm.x(b[0]) < gpujobBoxMinPx)
			narrow++;
		depth = std::max(depth, job->subrow + 1);
	}

	GraphPos self = { d.base, d.height, depth };
	if (visible && narrow * 2 > visible) {
		/* zoomed out: a busy profile, no boxes, no arrows */
		self.depth = -1;
		drawBusyProfile(d, idx);
	} else if (visible) {
		std::vector<int> lastX(subrowCap(d.height), INT32_MIN);
		int cap = subrowCap(d.height);

		for (size_t i = plugin_gpujob_index_first(idx, d.xm.t0);
		     i < idx->n && idx->it[i].begin <= d.xm.t1; ++i) {
			const plugin_gpujob *job = &d.ctx->jobs[idx->it[i].job];

			if (idx->it[i].end < d.xm.t0)
				continue;
			subrowBand(depth, job->subrow, d.base, d.height, &y0, &y1);
			drawJobBox(d, idx->it[i].job, y0, y1, true,
				   &lastX[std::min(job->subrow, cap - 1)]);
		}
		if (depth > cap)
			drawCapMark(d, r, depth, cap);
	}
	d.st->seen[{ KSHARK_TASK_DRAW, d.ctx->rings[r].id }] = self;

	/* dependency arrows with every ring row already drawn in this frame (and itself) */
	for (size_t o = 0; o < d.ctx->n_rings; ++o) {
		auto it = d.st->seen.find({KSHARK_TASK_DRAW, d.ctx->rings[o].id});

		if ((ssize_t)o == r) {
			drawDepsBetween(d, r, self, r, self);
			continue;
		}
		if (it == d.st->seen.end())
			continue;
		drawDepsBetween(d, r, self, o, it->second);	/* consumer here */
		drawDepsBetween(d, o, it->second, r, self);	/* producer here */
	}
}

/*
 * A CRTC row (issue 18): the vblank ticks (lib/frames.c's instants) in its upper half
 * and its clients' judged frames in its lower half: a late frame is a red bar from the
 * vblank it was due for to the one it was shown at, an on-time frame a green block
 * ending at the vblank it was shown at. Zoomed out (ticks closer than a few pixels)
 * only the late frames remain.
 */
void drawCrtc(DrawCtx &d, const plugin_gpujob_crtc *c)
{
	int top = d.base - d.height + 3, bottom = d.base - 1;
	int mid = (top + bottom) / 2;
	bool ticks = true;

	d.argv->_graph->setLabelText(c->label);
	if (c->n_vblanks > 1) {
		/* the median-ish spacing of the whole CRTC decides the level of detail */
		uint64_t span = c->vblank_ts[c->n_vblanks - 1] - c->vblank_ts[0];
		double px = span * d.xm.scale / (double)(c->n_vblanks - 1);

		ticks = px >= gpujobVblankMinPx;
	}
	if (ticks) {
		for (size_t i = plugin_gpujob_vblank_first(c, d.xm.t0);
		     i < c->n_vblanks && c->vblank_ts[i] <= d.xm.t1; ++i) {
			int x = d.xm.x(c->vblank_ts[i]);

			push(d, rect(x, top, x + 1, mid - 1, gpujobVblankColor, true));
		}
	}
	/*
	 * Frames due before the window may still be shown inside it. Two passes: the
	 * on-time blocks are pushed first, so they are painted above the late bars (a frame
	 * shown on time at the vblank a late one was finally shown at stays visible).
	 */
	uint64_t from = d.xm.t0 > gpujobFrameLookBackNs ? d.xm.t0 - gpujobFrameLookBackNs : 0;
	for (int pass = 0; pass < 2; ++pass) {
		for (size_t i = plugin_gpujob_frame_first(c, from); i < c->n_frames; ++i) {
			const plugin_gpujob_frame *f = &c->frames[i];
			uint64_t a = has(f->deadline_ts) ? f->deadline_ts : f->presented_ts;
			uint64_t b = has(f->presented_ts) ? f->presented_ts : d.xm.t1;

			if (has(a) && a > d.xm.t1)
				break;
			if (!has(a) || b < d.xm.t0 || f->late != (pass == 1))
				continue;
			if (f->late) {
				int xa = d.xm.x(a), xb = std::max(d.xm.x(b), xa + 2);

				push(d, rect(xa, mid + 1, xb, bottom, gpujobLateColor, true));
			} else if (ticks) {
				int xb = d.xm.x(b);

				push(d, rect(xb - gpujobOnTimePx, mid + 1, xb, bottom,
					     gpujobOnTimeColor, true));
			}
		}
	}
	d.st->seen[{ KSHARK_TASK_DRAW, c->id }] = { d.base, d.height, 1 };
}

void drawTask(DrawCtx &d, const gpujob_index *idx)
{
	/* a thin strip at the top of the task's graph */
	int y0 = d.base - d.height + 2;
	int y1 = y0 + std::max(4, d.height / 4);
	int lastX = INT32_MIN;

	for (size_t i = plugin_gpujob_index_first(idx, d.xm.t0);
	     i < idx->n && idx->it[i].begin <= d.xm.t1; ++i) {
		if (idx->it[i].end < d.xm.t0)
			continue;
		drawJobBox(d, idx->it[i].job, y0, y1, false, &lastX);
	}
}

/* Stage item on a CPU graph: the strip, and connectors to the neighbour stages. */
int nextStage(const plugin_gpujob *job, int s)
{
	for (int n = s + 1; n < GPUJOB_NSTAGES; ++n)
		if (has(job->ts[n]) && job->cpu[n] >= 0)
			return n;
	return -1;
}

int prevStage(const plugin_gpujob *job, int s)
{
	for (int p = s - 1; p >= 0; --p)
		if (has(job->ts[p]) && job->cpu[p] >= 0)
			return p;
	return -1;
}

void drawCPU(DrawCtx &d, int cpu)
{
	int y0 = d.base - d.height + 2;
	int y1 = y0 + std::max(4, d.height / 4);
	int ymid = (y0 + y1) / 2;

	/* no job wide enough for a strip at this zoom: not even the index is needed */
	if ((double)d.ctx->max_job_ns * d.xm.scale < gpujobCpuMinJobPx - 1)
		return;
	const gpujob_index *idx = plugin_gpujob_cpu_index(d.ctx, cpu);
	if (!idx)
		return;

	for (size_t i = plugin_gpujob_index_first(idx, d.xm.t0);
	     i < idx->n && idx->it[i].begin <= d.xm.t1; ++i) {
		const gpujob_item *it = &idx->it[i];
		const plugin_gpujob *job = &d.ctx->jobs[it->job];
		Color pc = processColor(job);
		int s = it->stage & ~GPUJOB_ARRIVAL;

		if (it->end < d.xm.t0)
			continue;
		/*
		 * Level of detail: a job narrower than a few pixels gets nothing on the CPU
		 * graphs (zoomed out they would bury the CPU's own data); the ring rows
		 * still show it.
		 */
		if (d.xm.x(job->end) - d.xm.x(job->begin) < gpujobCpuMinJobPx)
			continue;

		if (it->stage & GPUJOB_ARRIVAL) {
			/* connector from the previous stage, if its CPU was drawn before */
			int p = prevStage(job, s);
			auto o = p >= 0 ? d.st->seen.find({KSHARK_CPU_DRAW, job->cpu[p]}) :
					  d.st->seen.end();

			if (o != d.st->seen.end()) {
				int oy = o->second.base - o->second.height + 2 +
					 std::max(4, o->second.height / 4) / 2;
				line(d, d.xm.x(job->ts[p]), oy, d.xm.x(job->ts[s]), ymid, pc, 1);
			}
			continue;
		}

		int xa = d.xm.x(it->begin), xb = d.xm.x(it->end);
		Color fill = s == GPULAT_ST_QUEUE ? tint(pc, gpujobWaitAlpha) :
			     s == GPULAT_ST_RUN ? pc : tint(pc, gpujobHwqAlpha);

		/* connector to the next stage when its CPU's graph is already drawn */
		int n = nextStage(job, s);
		if (n >= 0 && job->cpu[n] != cpu) {
			auto o = d.st->seen.find({KSHARK_CPU_DRAW, job->cpu[n]});
			if (o != d.st->seen.end()) {
				int oy = o->second.base - o->second.height + 2 +
					 std::max(4, o->second.height / 4) / 2;
				line(d, d.xm.x(job->ts[s]), ymid, d.xm.x(job->ts[n]), oy, pc, 1);
			}
		}

		if (xb - xa < 2) {
			push(d, rect(xa, y0, xa + 1, y1, pc, true));
			continue;
		}

		JobBox *box = new JobBox;
		box->setFill(false);
		box->setPoint(0, xa, y1);
		box->setPoint(1, xa, y0);
		box->setPoint(2, xb, y0);
		box->setPoint(3, xb, y1);
		box->_color = pc;
		box->_size = 1;
		box->_a = firstEntry(job);
		box->_b = doneEntry(job);
		push(d, box);
		push(d, rect(xa, y0, xb, y1, fill, true));
	}
}

/* Is this call the first of a new frame? */
bool newFrame(gpujob_draw_state *st, KsCppArgV *argv, int action, int val)
{
	if (argv->_shapes->empty() || !st->token)
		return true;
	if (st->seen.count({action, val}))
		return true;
	return std::find(argv->_shapes->begin(), argv->_shapes->end(), st->token) ==
	       argv->_shapes->end();
}

/* ------------------------------------------------------------------------ */
/* Hover tooltip, menu                                                        */

/* The job box under (x, y) of the GL widget in the last frame, of any stream. */
bool hitTest(int x, int y, gpujob_draw_state **stp, size_t *job)
{
	int best = INT32_MAX;

	for (gpujob_draw_state *st : gpujobStates) {
		for (const auto &h : st->hits) {
			if (x < h.x0 - 1 || x > h.x1 + 1 || y < h.y0 || y > h.y1)
				continue;
			/* the narrowest: a short job drawn over a long one's row */
			if (h.x1 - h.x0 < best) {
				best = h.x1 - h.x0;
				*stp = st;
				*job = h.job;
			}
		}
	}
	return best != INT32_MAX;
}

/* The tooltip text of the "+N" mark under (x, y) in the last frame, or nullptr. */
const std::string *markTest(int x, int y)
{
	for (gpujob_draw_state *st : gpujobStates)
		for (const auto &m : st->marks)
			if (x >= m.x0 && x <= m.x1 && y >= m.y0 && y <= m.y1)
				return &m.text;
	return nullptr;
}

class HoverFilter : public QObject {
      public:
	QPointer<QLabel> tip;

	void hide()
	{
		if (tip)
			tip->hide();
	}

	void show(const QPoint &global, const QString &text)
	{
		if (!tip) {
			tip = new QLabel(nullptr, Qt::ToolTip | Qt::FramelessWindowHint);
			tip->setObjectName("gpu_jobs_tooltip");
			tip->setStyleSheet("QLabel { background: #ffffe0; color: black; "
					   "border: 1px solid #808080; padding: 4px; "
					   "font-family: monospace; }");
		}
		tip->setText(text);
		/* the title carries the same text on one line: xdotool reads it */
		tip->setWindowTitle("gpu_jobs: " + QString(text).replace("\n", " | "));
		tip->adjustSize();
		tip->move(global + QPoint(14, 16));
		tip->show();
		tip->raise();
	}

      protected:
	bool eventFilter(QObject *obj, QEvent *ev) override
	{
		if (ev->type() == QEvent::MouseMove) {
			QWidget *w = static_cast<QWidget *>(obj);
			QMouseEvent *me = static_cast<QMouseEvent *>(ev);
			double dpr = w->devicePixelRatioF();
			gpujob_draw_state *st = nullptr;
			size_t job = 0;

			const std::string *mark = markTest(me->pos().x() * dpr,
							   me->pos().y() * dpr);

			if (mark) {
				show(me->globalPos(), QString::fromStdString(*mark));
			} else if (hitTest(me->pos().x() * dpr, me->pos().y() * dpr, &st, &job) &&
				   st->ctx && job < st->ctx->n_jobs) {
				std::vector<char> buf(4096);
				size_t n = plugin_gpujob_describe(st->ctx, job, buf.data(),
								  buf.size());
				if (n >= buf.size()) {
					buf.resize(n + 1);
					plugin_gpujob_describe(st->ctx, job, buf.data(),
							       buf.size());
				}
				show(me->globalPos(), QString::fromUtf8(buf.data()));
			} else {
				hide();
			}
		} else if (ev->type() == QEvent::Leave || ev->type() == QEvent::MouseButtonPress ||
			   ev->type() == QEvent::Wheel) {
			hide();
		}
		return false;
	}
};

HoverFilter *gpujobHover;
QPointer<QWidget> gpujobHoverWidget;

/* Once KernelShark's GL widget exists: hover events of it come to HoverFilter. */
void installHover()
{
	QWidget *ks = static_cast<QWidget *>(mainWindow());

	if (gpujobHoverWidget || !ks)
		return;
	for (QWidget *w : ks->findChildren<QWidget *>()) {
		if (!w->inherits("KsGLWidget"))
			continue;
		if (!gpujobHover)
			gpujobHover = new HoverFilter;
		w->setMouseTracking(true);
		w->installEventFilter(gpujobHover);
		gpujobHoverWidget = w;
		if (getenv("GPU_JOBS_DEBUG"))
			fprintf(stderr, "gpu_jobs: hover on %s\n", w->metaObject()->className());
		return;
	}
}

const char *gpujobLegend =
	"GPU ring rows (one per device and ring):\n\n"
	"Zoomed in, each GPU job is a box in three shades of its process's color:\n"
	"  pale: scheduler wait (queue -> run, includes dependency waits)\n"
	"  mid:  hardware queue (run -> the ring finished the previous job)\n"
	"  dark: execution (-> the hardware fence signaled)\n"
	"Each process has its own color (in order of first appearance).\n"
	"Arrows: from the done of a dependency the job really waited on (it signaled\n"
	"after the job was queued) to the job's run; thinned out where too dense.\n"
	"\"+N\" (right end of a row): jobs stack N sub-rows deeper than fit the row;\n"
	"  they share its top sub-row (hover the mark, or zoom in).\n\n"
	"Zoomed out, a row is the ring's busy profile: the bar height in each pixel\n"
	"column is the share of that time the ring executed.\n\n"
	"CRTC rows (one per display pipe with drm vblank events): grey ticks at the\n"
	"vblanks (the hardware `time` when recorded with -C mono); below them the\n"
	"frames of its clients as trace-cmd gpu-latency --frames judges them: green\n"
	"on time (at the vblank it was shown), red late (from the vblank it was due\n"
	"for to the one it was shown at).\n\n"
	"Hover a job for its numbers; double-click it for markers A (queue) and B (done).";

void addMenu(QMainWindow *mw)
{
	static QPointer<QMenu> menu;

	if (!mw || menu)
		return;
	menu = mw->menuBar()->addMenu("GPU jobs");
	QAction *all = menu->addAction("Show every dependency (also already signaled)");
	all->setCheckable(true);
	all->setChecked(gpujobAllDeps);
	QObject::connect(all, &QAction::toggled, [](bool on) {
		gpujobAllDeps = on;
		/* the shapes are made again on the next zoom or scroll */
		if (gpujobHoverWidget)
			gpujobHoverWidget->update();
	});
	QAction *legend = menu->addAction("Legend...");
	QObject::connect(legend, &QAction::triggered, [mw]() {
		QMessageBox::information(mw, "gpu_jobs: legend", gpujobLegend);
	});
}

void draw(KsCppArgV *argv, plugin_gpujob_ctx *ctx, int val, int action)
{
	gpujob_draw_state *st;
	DrawCtx d;

	if (!ctx->draw) {
		ctx->draw = new gpujob_draw_state;
		ctx->draw->ctx = ctx;
		gpujobStates.insert(ctx->draw);
	}
	st = ctx->draw;
	installHover();

	if (!st->fontTried) {
		/* the GL context is current in the draw handler */
		st->fontTried = true;
		st->fontOk = ksplot_init_font(&st->font, 10, TT_FONT_FILE);
		st->smallFontOk = ksplot_init_font(&st->smallFont, 8, TT_FONT_FILE);
		if (getenv("GPU_JOBS_DEBUG"))
			fprintf(stderr, "gpu_jobs: fonts %d/%d height %d/%d base %d/%d\n",
				st->fontOk, st->smallFontOk, st->font.height,
				st->smallFont.height, st->font.base, st->smallFont.base);
	}

	if (plugin_gpujob_link(ctx) < 0)
		return;

	d.argv = argv;
	d.ctx = ctx;
	d.st = st;
	if (!d.xm.init(argv->_histo, argv->_graph))
		return;
	d.base = argv->_graph->base();
	d.height = argv->_graph->height();

	if (newFrame(st, argv, action, val)) {
		st->seen.clear();
		st->hits.clear();
		st->marks.clear();
		st->depCells.clear();
		st->haveTail = false;
	}

	FrameToken *token = new FrameToken;
	push(d, token);
	st->token = token;

	if (action == KSHARK_CPU_DRAW) {
		drawCPU(d, val);
	} else {
		ssize_t r = plugin_gpujob_ring_by_id(ctx, val);
		ssize_t c = r < 0 ? plugin_gpujob_crtc_by_id(ctx, val) : -1;

		if (r >= 0) {
			drawRing(d, r);
		} else if (c >= 0) {
			drawCrtc(d, &ctx->crtcs[c]);
		} else {
			const gpujob_index *idx = plugin_gpujob_pid_index(ctx, val);
			if (idx && idx->n)
				drawTask(d, idx);
		}
	}

	if (!st->seen.count({ action, val }))
		st->seen[{ action, val }] = { d.base, d.height, 1 };
}

} // namespace

/**
 * plugin_gpujob_draw - the draw handler
 * @argv: KsCppArgV (histogram, graph, shape list)
 * @sd: stream
 * @val: CPU (KSHARK_CPU_DRAW) or task id / ring id (KSHARK_TASK_DRAW)
 * @draw_action: what kind of graph; combo graphs are left alone
 */
void plugin_gpujob_draw(kshark_cpp_argv *argv, int sd, int val, int draw_action)
{
	plugin_gpujob_ctx *ctx;

	if (draw_action != KSHARK_CPU_DRAW && draw_action != KSHARK_TASK_DRAW)
		return;

	ctx = __get_context(sd);
	if (!ctx)
		return;

	try {
		draw(KS_ARGV_TO_CPP(argv), ctx, val, draw_action);
	} catch (const std::exception &exc) {
		std::cerr << "gpu_jobs: " << exc.what() << std::endl;
	}
}

/** The GUI side: a "GPU jobs" menu (every dependency, legend). */
extern "C" GPUJOB_EXPORT void *KSHARK_MENU_PLUGIN_INITIALIZER(void *gui_ptr)
{
	try {
		addMenu(qobject_cast<QMainWindow *>(
			static_cast<QObject *>(static_cast<QMainWindow *>(gui_ptr))));
	} catch (const std::exception &exc) {
		std::cerr << "gpu_jobs: " << exc.what() << std::endl;
	}
	return nullptr;
}
