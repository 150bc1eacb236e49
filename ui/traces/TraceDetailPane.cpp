#include "TraceDetailPane.h"

#include "AttemptActions.h"
#include "AttemptTimeline.h"
#include "common/Format.h"
#include "common/ManagementClient.h"
#include "keys/KeyRoutingDialog.h"

#include <QtCore/QJsonArray>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QTableWidget>
#include <QtWidgets/QVBoxLayout>

namespace Aile::Ui {

TraceDetailPane::TraceDetailPane(QWidget *parent)
    : QWidget(parent), m_summary(new QLabel(this)), m_timeline(new AttemptTimeline(this)), m_attempts(new QTableWidget(this)),
      m_why(new QPushButton(tr("&Why this sharer?"), this)), m_whyText(new QLabel(this)), m_actionResult(new QLabel(this))
{
    setObjectName(QStringLiteral("traceDetail"));
    m_summary->setObjectName(QStringLiteral("traceSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_summary->setAccessibleName(tr("Selected trace"));

    m_attempts->setObjectName(QStringLiteral("attemptsTable"));
    m_attempts->setAccessibleName(tr("Attempts of the selected trace"));
    m_attempts->setColumnCount(AttemptColumnCount);
    m_attempts->setHorizontalHeaderLabels({tr("#"), tr("Sharer"), tr("Status"), tr("Outcome"), tr("Reason"), tr("First byte"), tr("Duration"),
                                           tr("Tokens in/out"), tr("Quote"), tr("Action")});
    m_attempts->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_attempts->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_attempts->setTabKeyNavigation(false);
    m_attempts->verticalHeader()->hide();
    m_attempts->horizontalHeader()->setStretchLastSection(false);
    m_attempts->horizontalHeader()->setSectionResizeMode(Reason, QHeaderView::Stretch);
    m_attempts->setWordWrap(false);

    m_why->setObjectName(QStringLiteral("whyThisSharer"));
    m_why->setAccessibleName(tr("Why this sharer?"));
    connect(m_why, &QPushButton::clicked, this, &TraceDetailPane::explainChoice);
    for (QLabel *label : {m_whyText, m_actionResult}) {
        label->setWordWrap(true);
        label->setTextFormat(Qt::PlainText);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    }
    m_whyText->setObjectName(QStringLiteral("whyText"));
    m_whyText->setAccessibleName(tr("Why this sharer"));
    m_actionResult->setObjectName(QStringLiteral("actionResult"));
    m_actionResult->setAccessibleName(tr("What the action did"));
    auto *whyRow = new QHBoxLayout;
    whyRow->addWidget(m_actionResult, 1);
    whyRow->addWidget(m_why);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_summary);
    layout->addWidget(m_whyText);
    layout->addLayout(whyRow);
    layout->addWidget(m_timeline);
    layout->addWidget(m_attempts, 1);
    clear();
}

void TraceDetailPane::clear()
{
    m_summary->setText(tr("Select a trace to see its attempts."));
    m_timeline->clear();
    m_attempts->setRowCount(0);
    m_trace = Store::TraceRecord();
    m_why->setEnabled(false);
    m_whyText->hide();
    m_actionResult->clear();
}

void TraceDetailPane::setClient(ManagementClient *client)
{
    m_client = client;
}

QString TraceDetailPane::actionResult() const
{
    return m_actionResult->text();
}

QString TraceDetailPane::explainChoice()
{
    const QString text = AttemptActions::whyThisSharer(m_trace);
    m_whyText->setText(text);
    m_whyText->setVisible(!m_trace.id.isEmpty());
    return text;
}

KeyRoutingDialog *TraceDetailPane::runAction(int row)
{
    if (row < 0 || row >= m_trace.attemptRows.size())
        return nullptr;
    const Store::AttemptRecord a = m_trace.attemptRows.at(row);
    const AttemptAction action = AttemptActions::suggest(a);
    if (action.kind == AttemptAction::Kind::None || !m_client)
        return nullptr;
    if (action.kind == AttemptAction::Kind::OpenRouting) {
        auto *dialog = new KeyRoutingDialog(m_client, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->load(m_trace.keyId);
        // The lever is highlighted once the key's fields are filled in.
        connect(dialog, &KeyEditDialog::loaded, dialog, [dialog, lever = action.lever] { dialog->highlightLever(lever); });
        dialog->open();
        m_actionResult->setText(action.lever.isEmpty() ? tr("The request's own header refused %1; the key's routing is open.").arg(a.sharerName)
                                                       : tr("The key's routing is open on the setting that refused %1.").arg(a.sharerName));
        return dialog;
    }
    m_actionResult->setText(tr("%1 on %2…").arg(action.label, a.sharerName.isEmpty() ? a.sharer : a.sharerName));
    m_client->traceAction(m_trace.id, action.apiAction(), a.sharer, QString(), this, [this](const Reply<QJsonObject> &r) {
        const bool ok = r.ok() && r.value.value(QLatin1String("ok")).toBool();
        const QString message = r.ok() ? r.value.value(QLatin1String("message")).toString() : r.error;
        m_actionResult->setText(message);
        Q_EMIT actionFinished(ok, message);
    });
    return nullptr;
}

void TraceDetailPane::showTrace(const Store::TraceRecord &t)
{
    QStringList lines;
    lines << tr("%1 · %2 · key %3 · %4")
                 .arg(t.id, Format::dateTime(t.startedMs), t.keyName.isEmpty() ? t.keyId : t.keyName,
                      t.client.isEmpty() ? t.endpoint : Format::client(t.client) + QStringLiteral(" → ") + t.endpoint);
    QString model = t.modelAsked;
    if (!t.modelServed.isEmpty() && t.modelServed != t.modelAsked)
        model += QStringLiteral(" → ") + t.modelServed;
    if (!t.route.isEmpty())
        model = tr("%1 (route %2)").arg(model, t.route);
    lines << tr("Model %1 · status %2 · attempts %3 · first token %4 · total %5")
                 .arg(model, Format::status(t.status), QString::number(t.attempts), Format::duration(t.ttfbMs), Format::duration(t.durationMs));
    lines << tr("Tokens %1 in, %2 out · cost %3 · affinity %4%5")
                 .arg(Format::tokens(t.inputTokens), Format::tokens(t.outputTokens), Format::money(t.costUsd),
                      t.affinity.isEmpty() ? QStringLiteral("—") : Format::affinity(t.affinity), t.stream ? tr(" · streamed") : QString());
    if (!t.pin.isEmpty()) {
        // The conversation's pin after this request: which account, kept by what, until when.
        const QString who = t.pin.value(QLatin1String("sharerName")).toString();
        QStringList by;
        for (const QJsonValue &v : t.pin.value(QLatin1String("by")).toArray())
            by << Format::pinEvidence(v.toString());
        QString line = tr("Conversation pinned to %1 by %2, until %3")
                           .arg(who.isEmpty() ? t.pin.value(QLatin1String("sharer")).toString() : who, by.join(QStringLiteral(", ")),
                                Format::dateTime(qint64(t.pin.value(QLatin1String("untilMs")).toDouble())));
        const QString found = t.pin.value(QLatin1String("foundBy")).toString();
        if (!found.isEmpty())
            line += tr(" · found by %1").arg(Format::pinEvidence(found));
        lines << line;
    }
    if (!t.error.isEmpty())
        lines << tr("Error: %1").arg(t.error);
    m_summary->setText(lines.join(QLatin1Char('\n')));
    m_timeline->setTrace(t);
    m_trace = t;
    m_why->setEnabled(true);
    m_whyText->hide();
    m_actionResult->clear();

    m_attempts->setRowCount(int(t.attemptRows.size()));
    for (int row = 0; row < t.attemptRows.size(); ++row) {
        const Store::AttemptRecord &a = t.attemptRows.at(row);
        const QString tokens = a.inputTokens < 0 && a.outputTokens < 0
                                   ? QStringLiteral("—")
                                   : Format::tokens(a.inputTokens) + QStringLiteral(" / ") + Format::tokens(a.outputTokens);
        const QStringList cells{QString::number(a.seq),
                                a.sharerName.isEmpty() ? a.sharer : a.sharerName,
                                a.dispatched ? Format::status(a.status) : tr("not dialled"),
                                Format::outcome(a.outcome),
                                a.reason,
                                Format::duration(a.ttfbMs),
                                a.dispatched ? Format::duration(a.durationMs) : QStringLiteral("—"),
                                tokens,
                                a.quoteUsd < 0 ? QStringLiteral("—") : Format::money(a.quoteUsd)};
        for (int c = 0; c < cells.size(); ++c) {
            auto *item = new QTableWidgetItem(cells.at(c));
            if (c == Reason || c == Sharer)
                item->setToolTip(cells.at(c));
            m_attempts->setItem(row, c, item);
        }
        const AttemptAction action = AttemptActions::suggest(a);
        if (action.kind == AttemptAction::Kind::None) {
            m_attempts->setItem(row, Action, new QTableWidgetItem());
            continue;
        }
        auto *button = new QPushButton(action.label, m_attempts);
        button->setObjectName(QStringLiteral("attemptAction%1").arg(row));
        button->setEnabled(m_client);
        button->setAccessibleName(tr("%1 for %2").arg(QString(action.label).remove(QLatin1Char('&')), cells.at(Sharer)));
        connect(button, &QPushButton::clicked, this, [this, row] { runAction(row); });
        m_attempts->setCellWidget(row, Action, button);
    }
    m_attempts->resizeColumnsToContents();
    m_attempts->horizontalHeader()->setSectionResizeMode(Reason, QHeaderView::Stretch);
}

} // namespace Aile::Ui
