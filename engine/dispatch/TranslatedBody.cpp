#include "TranslatedBody.h"

#include "billing/Quote.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>

namespace Aile::Dispatch {

TranslatedBody translateBody(Wire::Endpoint client, Wire::Endpoint upstream, QJsonObject body, const QString &upstreamModel,
                             const QString &sessionSeed, bool maxCompletionTokens)
{
    TranslatedBody out;
    body.insert(QStringLiteral("model"), upstreamModel);
    body.remove(QStringLiteral("models"));
    body.remove(QStringLiteral("provider"));
    Translate::Options options;
    if (!sessionSeed.isEmpty() && sessionSeed != QLatin1String("none"))
        options.sessionId = QStringLiteral("aile-") + sessionSeed; // OpenAI's prompt_cache_key: one per conversation
    options.defaultMaxTokens = Billing::DefaultMaxTokens;          // what the quote priced the answer at
    options.maxCompletionTokens = maxCompletionTokens;
    out.translation = Translate::translateRequest(client, upstream, QJsonDocument(body).toJson(QJsonDocument::Compact), options);
    if (out.translation.ok())
        out.upstream = rewriteBody(upstream, QJsonDocument::fromJson(out.translation.body).object(), upstreamModel);
    return out;
}

QByteArray translateWholeAnswer(Wire::Endpoint client, Wire::Endpoint upstream, int status, const QByteArray &body, QStringList *dropped,
                                const QStringList &customTools)
{
    if (status >= 400)
        return Translate::translateError(client, upstream, status, body);
    const Translate::AnswerTranslation t = Translate::translateAnswer(client, upstream, body, customTools);
    for (const QString &d : t.dropped)
        if (!dropped->contains(d))
            dropped->append(d);
    return t.body;
}

void noteTranslation(QJsonObject &plan, const QString &label, const QStringList &dropped)
{
    plan.insert(QStringLiteral("translated"), label);
    if (!dropped.isEmpty())
        plan.insert(QStringLiteral("dropped"), QJsonArray::fromStringList(dropped));
}

} // namespace Aile::Dispatch
