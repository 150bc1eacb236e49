#include "GetStartedPanel.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtWidgets/QGridLayout>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QToolButton>
#include <QtWidgets/QVBoxLayout>

namespace Aile::Ui {

namespace {

QPushButton *stepButton(const QString &text, const QString &name, QWidget *parent)
{
    auto *b = new QPushButton(text, parent);
    b->setObjectName(name);
    b->setAccessibleName(text);
    return b;
}

} // namespace

GetStartedPanel::GetStartedPanel(QWidget *parent) : QScrollArea(parent), m_summary(new QLabel)
{
    setObjectName(QStringLiteral("getStartedPanel"));
    setAccessibleName(tr("Get started"));
    setFrameShape(QFrame::StyledPanel);
    setWidgetResizable(true);
    setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto *content = new QWidget;
    content->setObjectName(QStringLiteral("getStartedContent"));

    auto *title = new QLabel(tr("<b>Get started</b>"), content);
    auto *hideButton = new QToolButton(content);
    hideButton->setObjectName(QStringLiteral("dismissGetStarted"));
    hideButton->setText(tr("Hide"));
    hideButton->setAccessibleName(tr("Hide the checklist"));
    hideButton->setToolTip(tr("Help ▸ Get started shows it again."));
    connect(hideButton, &QToolButton::clicked, this, [this] {
        this->hide();
        Q_EMIT dismissed();
    });
    auto *head = new QHBoxLayout;
    head->addWidget(title, 1);
    head->addWidget(hideButton);

    auto *grid = new QGridLayout;
    QList<QPushButton *> buttons[StepCount];
    buttons[AddSharer] << stepButton(tr("Add a sharer…"), QStringLiteral("getStartedAddSharer"), content)
                       << stepButton(tr("Test model…"), QStringLiteral("getStartedTestModel"), content);
    buttons[CreateKey] << stepButton(tr("Create a key…"), QStringLiteral("getStartedCreateKey"), content);
    buttons[ConnectTool] << stepButton(tr("Connect a tool…"), QStringLiteral("getStartedConnectTool"), content);
    buttons[TestRequest] << stepButton(tr("Send a test request"), QStringLiteral("getStartedTestRequest"), content)
                         << stepButton(tr("Show Traces"), QStringLiteral("getStartedShowTraces"), content);
    connect(buttons[AddSharer].at(0), &QPushButton::clicked, this, &GetStartedPanel::addSharerRequested);
    connect(buttons[AddSharer].at(1), &QPushButton::clicked, this, &GetStartedPanel::testModelRequested);
    connect(buttons[CreateKey].at(0), &QPushButton::clicked, this, &GetStartedPanel::createKeyRequested);
    connect(buttons[ConnectTool].at(0), &QPushButton::clicked, this, &GetStartedPanel::connectToolRequested);
    connect(buttons[TestRequest].at(0), &QPushButton::clicked, this, &GetStartedPanel::testRequestRequested);
    connect(buttons[TestRequest].at(1), &QPushButton::clicked, this, &GetStartedPanel::showTracesRequested);
    for (int i = 0; i < StepCount; ++i) {
        m_marks[i] = new QLabel(content);
        m_marks[i]->setObjectName(QStringLiteral("getStartedMark%1").arg(i));
        m_texts[i] = new QLabel(content);
        m_texts[i]->setObjectName(QStringLiteral("getStartedStep%1").arg(i));
        m_texts[i]->setWordWrap(true);
        grid->addWidget(m_marks[i], i, 0, Qt::AlignTop);
        grid->addWidget(m_texts[i], i, 1);
        auto *row = new QHBoxLayout;
        for (QPushButton *b : buttons[i])
            row->addWidget(b);
        row->addStretch(1);
        grid->addLayout(row, i, 2);
    }
    grid->setColumnStretch(1, 1);
    m_summary->setObjectName(QStringLiteral("getStartedSummary"));
    m_summary->setWordWrap(true);

    auto *layout = new QVBoxLayout(content);
    layout->addLayout(head);
    layout->addLayout(grid);
    layout->addWidget(m_summary);
    setWidget(content);
    refresh();
}

void GetStartedPanel::setStatus(const Aile::Api::EngineStatus &status)
{
    bool anySharer = false, tested = false, anyKey = false;
    for (const Api::SharerStatus &s : status.sharers) {
        anySharer = true;
        tested = tested || !s.tested.isEmpty();
    }
    for (const Api::KeyInfo &k : status.keys)
        anyKey = anyKey || !k.revoked;
    m_tested = tested;
    setDone(AddSharer, anySharer);
    setDone(CreateKey, anyKey);
    refresh();
}

void GetStartedPanel::noteTraces(const QList<Aile::Store::TraceRecord> &traces)
{
    // Once both steps are ticked a batch changes nothing here: no work per request under load.
    if (m_done[ConnectTool] && m_done[TestRequest])
        return;
    for (const Store::TraceRecord &t : traces) {
        if (!t.keyId.isEmpty())
            setDone(ConnectTool, true);
        if (t.status >= 200 && t.status < 300)
            setDone(TestRequest, true);
    }
    refresh();
}

void GetStartedPanel::noteHistory(bool anyRequest, bool anyServed)
{
    if (anyRequest)
        setDone(ConnectTool, true);
    if (anyServed)
        setDone(TestRequest, true);
    refresh();
}

bool GetStartedPanel::allDone() const
{
    for (bool d : m_done)
        if (!d)
            return false;
    return true;
}

QString GetStartedPanel::stepText(Step step) const
{
    return m_texts[step]->text();
}

void GetStartedPanel::setDone(Step step, bool done)
{
    // A step stays ticked: removing the only sharer later does not undo having got through.
    if (m_done[step] || !done)
        return;
    m_done[step] = true;
    Q_EMIT progressed();
}

void GetStartedPanel::refresh()
{
    const QString texts[StepCount] = {
        m_tested ? tr("Add a sharer: an upstream account (an API key of yours). Done, and a model test passed.")
                 : tr("Add a sharer: an upstream account (an API key of yours); then Test model checks that it answers."),
        tr("Create a key: the local key your tools present to Aile. It is shown once."),
        tr("Connect a tool: copy its settings (Claude Code, Codex, OpenCode, an SDK). Ticks when a request with your key reaches Aile."),
        tr("Send a test request and see it in Traces. Ticks when a request is answered."),
    };
    int done = 0;
    for (int i = 0; i < StepCount; ++i) {
        m_texts[i]->setText(texts[i]);
        m_marks[i]->setText(m_done[i] ? QStringLiteral("✔") : QStringLiteral("○"));
        m_marks[i]->setAccessibleName(m_done[i] ? tr("done") : tr("to do"));
        m_texts[i]->setEnabled(!m_done[i]);
        done += m_done[i] ? 1 : 0;
    }
    m_summary->setText(done == StepCount ? tr("All set: Aile answered a request through your sharer. Hide this checklist when you like.")
                                         : tr("%1 of %2 steps done.").arg(done).arg(StepCount));
}

} // namespace Aile::Ui
