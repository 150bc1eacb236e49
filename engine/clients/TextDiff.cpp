#include "TextDiff.h"

#include <QtCore/QList>
#include <QtCore/QStringList>

#include <vector>

namespace Aile::Clients {

namespace {

struct Op
{
    char kind; // ' ', '-', '+'
    int a;     // line in before (for ' ' and '-')
    int b;     // line in after (for ' ' and '+')
};

QStringList linesOf(const QString &text)
{
    QStringList lines = text.split(QLatin1Char('\n'));
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    for (QString &l : lines)
        if (l.endsWith(QLatin1Char('\r')))
            l.chop(1);
    return lines;
}

// The longest common subsequence table, walked forward into keep/remove/add steps.
QList<Op> script(const QStringList &a, const QStringList &b)
{
    const int n = int(a.size()), m = int(b.size());
    QList<Op> ops;
    if (qint64(n) > 4000 || qint64(m) > 4000) {
        for (int i = 0; i < n; ++i)
            ops.append({'-', i, 0});
        for (int j = 0; j < m; ++j)
            ops.append({'+', n, j});
        return ops;
    }
    std::vector<int> len(size_t(n + 1) * size_t(m + 1), 0);
    auto at = [&](int i, int j) -> int & { return len[size_t(i) * size_t(m + 1) + size_t(j)]; };
    for (int i = n - 1; i >= 0; --i)
        for (int j = m - 1; j >= 0; --j)
            at(i, j) = a.at(i) == b.at(j) ? at(i + 1, j + 1) + 1 : qMax(at(i + 1, j), at(i, j + 1));
    int i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && a.at(i) == b.at(j)) {
            ops.append({' ', i++, j++});
        } else if (i < n && (j >= m || at(i + 1, j) >= at(i, j + 1))) {
            ops.append({'-', i++, j}); // removals first, as diff -u shows them
        } else {
            ops.append({'+', i, j++});
        }
    }
    return ops;
}

} // namespace

QString unifiedDiff(const QString &before, const QString &after, const QString &fromName, const QString &toName)
{
    if (before == after)
        return {};
    const QStringList a = linesOf(before), b = linesOf(after);
    const QList<Op> ops = script(a, b);
    constexpr int Context = 3;
    QString out = QStringLiteral("--- %1\n+++ %2\n").arg(fromName, toName);
    int k = 0;
    const int total = int(ops.size());
    while (k < total) {
        while (k < total && ops.at(k).kind == ' ')
            ++k;
        if (k >= total)
            break;
        // A hunk: from Context lines before this change to Context lines after the last change
        // that is no further than 2 * Context unchanged lines from the one before.
        const int start = qMax(0, k - Context);
        int end = k;
        int quiet = 0;
        for (int x = k; x < total; ++x) {
            if (ops.at(x).kind == ' ') {
                if (++quiet > 2 * Context)
                    break;
            } else {
                quiet = 0;
                end = x;
            }
        }
        const int stop = qMin(total, end + 1 + Context);
        int aCount = 0, bCount = 0;
        for (int x = start; x < stop; ++x) {
            aCount += ops.at(x).kind != '+';
            bCount += ops.at(x).kind != '-';
        }
        const int aStart = ops.at(start).a + (aCount > 0 ? 1 : 0);
        const int bStart = ops.at(start).b + (bCount > 0 ? 1 : 0);
        out += QStringLiteral("@@ -%1,%2 +%3,%4 @@\n").arg(aStart).arg(aCount).arg(bStart).arg(bCount);
        for (int x = start; x < stop; ++x) {
            const Op &op = ops.at(x);
            out += QLatin1Char(op.kind) + (op.kind == '+' ? b.at(op.b) : a.at(op.a)) + QLatin1Char('\n');
        }
        k = stop;
    }
    return out;
}

} // namespace Aile::Clients
