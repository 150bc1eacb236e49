#pragma once

#include "api/values/EngineStatus.h"

#include <QtWidgets/QScrollArea>

class QLabel;
class QPushButton;

namespace Aile::Ui {

/// "Get started": the short checklist the window opens on until the user has a sharer, a key and
/// one served request. Each step ticks itself from what the engine reports (its status, the traces
/// it records, the history in the store); the buttons open what does the step (the Sharers page's
/// Add sharer… and Test model…, the New key dialog, Connect a tool, the Traces page). It can be
/// hidden, and Help ▸ Get started shows it again. A scroll area, so that on a small screen it gives
/// way to the pages below rather than making the window taller than the screen.
class GetStartedPanel : public QScrollArea
{
    Q_OBJECT
public:
    enum Step { AddSharer, CreateKey, ConnectTool, TestRequest };
    static constexpr int StepCount = 4;

    explicit GetStartedPanel(QWidget *parent = nullptr);

    /// Sharers and keys: steps 1 and 2.
    void setStatus(const Aile::Api::EngineStatus &status);
    /// Requests the engine recorded: any request with a key ticks step 3 (a tool reached the
    /// proxy), a served one step 4.
    void noteTraces(const QList<Aile::Store::TraceRecord> &traces);
    /// What the store's history says at start.
    void noteHistory(bool anyRequest, bool anyServed);

    bool isDone(Step step) const { return m_done[step]; }
    bool allDone() const;
    /// The step's line as shown (for tests and screen readers).
    QString stepText(Step step) const;

Q_SIGNALS:
    void addSharerRequested();
    void testModelRequested();
    void createKeyRequested();
    void connectToolRequested();
    void testRequestRequested();
    void showTracesRequested();
    /// The user hid the checklist.
    void dismissed();
    /// A step ticked (or all did): the window may store that the user got through.
    void progressed();

private:
    void setDone(Step step, bool done);
    void refresh();

    bool m_done[StepCount] = {false, false, false, false};
    bool m_tested = false; // a sharer passed a test of a model
    QLabel *m_marks[StepCount];
    QLabel *m_texts[StepCount];
    QLabel *m_summary;
};

} // namespace Aile::Ui
