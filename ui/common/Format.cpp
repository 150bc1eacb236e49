#include "Format.h"

#include <QtCore/QDateTime>
#include <QtCore/QLocale>

namespace Aile::Ui {

QString Format::duration(qint64 ms)
{
    if (ms < 0)
        return QStringLiteral("—");
    if (ms < 1000)
        return tr("%1 ms").arg(ms);
    return tr("%1 s").arg(QLocale().toString(double(ms) / 1000.0, 'f', ms < 10000 ? 2 : 1));
}

QString Format::money(double usd)
{
    const int decimals = (usd != 0 && qAbs(usd) < 1.0) ? 4 : 2;
    return tr("$%1").arg(QLocale().toString(usd, 'f', decimals));
}

QString Format::tokens(qint64 count)
{
    return count < 0 ? QStringLiteral("—") : QLocale().toString(count);
}

QString Format::time(qint64 ms, qint64 nowMs)
{
    const QDateTime at = QDateTime::fromMSecsSinceEpoch(ms);
    if (at.date() == QDateTime::fromMSecsSinceEpoch(nowMs).date())
        return QLocale().toString(at.time(), QStringLiteral("HH:mm:ss"));
    return dateTime(ms);
}

QString Format::dateTime(qint64 ms)
{
    const QDateTime at = QDateTime::fromMSecsSinceEpoch(ms);
    return QLocale().toString(at.date(), QLocale::ShortFormat) + QLatin1Char(' ') + QLocale().toString(at.time(), QStringLiteral("HH:mm:ss"));
}

QString Format::status(int status)
{
    return status > 0 ? QString::number(status) : tr("no answer");
}

QString Format::outcome(const QString &outcome)
{
    if (outcome == QLatin1String("served"))
        return tr("served");
    if (outcome == QLatin1String("failed_over"))
        return tr("failed over");
    if (outcome == QLatin1String("passed_through"))
        return tr("passed through");
    if (outcome == QLatin1String("refused"))
        return tr("refused");
    if (outcome == QLatin1String("client_gone"))
        return tr("client gone");
    if (outcome == QLatin1String("cut"))
        return tr("cut");
    if (outcome == QLatin1String("timeout"))
        return tr("timed out");
    if (outcome == QLatin1String("budget_cut"))
        return tr("cut by the time budget");
    if (outcome == QLatin1String("error_event"))
        return tr("error in the stream");
    if (outcome == QLatin1String("phase_limit"))
        return tr("past a phase limit");
    if (outcome == QLatin1String("ttft_dropped"))
        return tr("dropped at the first-token limit");
    // New outcomes from the engine show as they are until they get a translation.
    return outcome;
}

QString Format::client(const QString &client)
{
    if (client == QLatin1String("claude-code"))
        return tr("Claude Code");
    if (client == QLatin1String("codex"))
        return tr("Codex CLI");
    if (client == QLatin1String("opencode"))
        return tr("OpenCode");
    if (client == QLatin1String("openai-sdk"))
        return tr("OpenAI SDK");
    if (client == QLatin1String("anthropic-sdk"))
        return tr("Anthropic SDK");
    if (client == QLatin1String("other"))
        return tr("other");
    return client;
}

QString Format::affinity(const QString &verdict)
{
    if (verdict == QLatin1String("fresh"))
        return tr("fresh");
    if (verdict == QLatin1String("pinned"))
        return tr("pinned");
    if (verdict == QLatin1String("off"))
        return tr("off");
    const auto reason = [](const QString &why) -> QString {
        if (why == QLatin1String("cooling"))
            return tr("cooling");
        if (why == QLatin1String("price"))
            return tr("price");
        if (why == QLatin1String("busy"))
            return tr("busy");
        if (why == QLatin1String("failed"))
            return tr("failed");
        if (why == QLatin1String("unavailable"))
            return tr("unavailable");
        if (why == QLatin1String("order"))
            return tr("order");
        if (why == QLatin1String("sort"))
            return tr("sort");
        if (why == QLatin1String("sharer named"))
            return tr("sharer named");
        return why;
    };
    if (verdict.startsWith(QLatin1String("moved:")))
        return tr("moved: %1").arg(reason(verdict.mid(6).trimmed()));
    if (verdict.startsWith(QLatin1String("skipped:")))
        return tr("skipped: %1").arg(reason(verdict.mid(8).trimmed()));
    return verdict;
}

QString Format::pinEvidence(const QString &kind)
{
    if (kind == QLatin1String("reasoning"))
        return tr("its reasoning");
    if (kind == QLatin1String("tool call"))
        return tr("its tool call");
    if (kind == QLatin1String("thread"))
        return tr("the client's thread");
    if (kind == QLatin1String("conversation"))
        return tr("its opening in the session");
    if (kind == QLatin1String("session"))
        return tr("the session");
    if (kind == QLatin1String("prompt_cache_key"))
        return tr("prompt_cache_key");
    if (kind == QLatin1String("opening"))
        return tr("its opening and first answer");
    return kind;
}

} // namespace Aile::Ui
